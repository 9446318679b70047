package sample

import (
	"context"
	"errors"
	"maps"
	"strings"
	"time"
)

// Combine joins a primary sampler (a process, or a metrics endpoint) with
// samplers whose named series (PromQL queries) go into the reading's Extra
// too, so that one run has one target with every series the user asked
// for. The primary's CPU and memory figures win; an extra sampler's CPU or
// memory is used only when the primary has none. A failing extra sampler
// makes the reading partial, not lost.
func Combine(primary Sampler, extras ...Sampler) Sampler {
	if len(extras) == 0 {
		return primary
	}
	return &combined{primary: primary, extras: extras}
}

type combined struct {
	primary Sampler
	extras  []Sampler
}

func (c *combined) Source() string {
	parts := []string{c.primary.Source()}
	for _, s := range c.extras {
		parts = append(parts, s.Source())
	}
	return strings.Join(parts, " + ")
}

func (c *combined) Series() []string {
	out := c.primary.Series()
	for _, s := range c.extras {
		out = append(out, s.Series()...)
	}
	return out
}

func (c *combined) Sample(ctx context.Context, now time.Time) (Reading, error) {
	r, err := c.primary.Sample(ctx, now)
	var errs []error
	if err != nil {
		if !errors.Is(err, ErrPartial) {
			r = Reading{NoCPU: true}
		}
		errs = append(errs, err)
	}
	for _, s := range c.extras {
		x, xerr := s.Sample(ctx, now)
		if xerr != nil {
			errs = append(errs, xerr)
			if !errors.Is(xerr, ErrPartial) {
				continue
			}
		}
		if r.Extra == nil {
			r.Extra = map[string]float64{}
		}
		maps.Copy(r.Extra, x.Extra)
		if r.NoCPU && !x.NoCPU {
			r.CPUPct, r.UserPct, r.SystemPct, r.NoCPU = x.CPUPct, x.UserPct, x.SystemPct, false
		}
		if r.RSSBytes == 0 {
			r.RSSBytes = x.RSSBytes
		}
	}
	if len(errs) == 0 {
		return r, nil
	}
	return r, errors.Join(append([]error{ErrPartial}, errs...)...)
}
