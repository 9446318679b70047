package hv

import (
	"errors"
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// Overrides are values laid over a Config, by a profile's producers
// section or by a command line: a nil field leaves the Config's value.
// Besides Config's own settings, a run's pace may be given as a total
// Rate over all producers (instead of the Interval) and its length as a
// Duration (instead of the Messages per producer); giving both spellings
// of one is an error. It exists so that profiles and flags size a run by
// the same rules.
type Overrides struct {
	Producers, Messages, Size *int
	Interval                  *time.Duration
	Rate                      *float64
	Duration                  *time.Duration
}

// Apply lays o over c; its errors name the settings as the command line
// spells them.
func (c *Config) Apply(o Overrides) error {
	for _, f := range []struct {
		dst *int
		v   *int
	}{{&c.Producers, o.Producers}, {&c.Messages, o.Messages}, {&c.Size, o.Size}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if o.Interval != nil {
		c.Interval = *o.Interval
	}
	if o.Rate != nil {
		if o.Interval != nil {
			return errors.New("--rate and --interval: give only one")
		}
		d, err := IntervalForRate(*o.Rate, max(c.Producers, 1))
		if err != nil {
			return fmt.Errorf("--rate: %w", err)
		}
		c.Interval = d
	}
	if o.Duration != nil {
		if o.Messages != nil {
			return errors.New("--duration and --messages: give only one")
		}
		if *o.Duration <= 0 || c.Interval <= 0 {
			return fmt.Errorf("--duration: want a positive duration, got %v", *o.Duration)
		}
		if *o.Duration > engine.MaxDuration {
			return fmt.Errorf("--duration %s: longer than %s, the longest run", long(*o.Duration), long(engine.MaxDuration))
		}
		c.Messages = int(min(int64(*o.Duration/c.Interval), 1<<31-1))
	}
	return nil
}
