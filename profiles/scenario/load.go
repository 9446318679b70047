package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/profiles"
)

// setLoad maps the scenario's load shape onto the engine: open shapes to
// a schedule, the concurrency ramp to the closed model, and N producers
// each sending every interval to the open rate N/interval.
func setLoad(cfg *engine.Config, s profiles.Shape) error {
	var segs []engine.Segment
	if open, ok := s.Open(); ok {
		for _, g := range open {
			segs = append(segs, engine.Segment{From: g.From, To: g.To, Duration: g.Duration})
		}
	}
	switch {
	case s.Closed != nil:
		cfg.Load = &engine.Closed{Concurrency: s.Closed.Concurrency, Step: s.Closed.Step}
		for _, c := range s.Closed.Concurrency {
			cfg.Pool = max(cfg.Pool, c)
		}
		return nil
	case s.Producers != nil:
		pr := s.Producers
		rate := float64(pr.Count) / pr.Interval.Seconds()
		segs = []engine.Segment{{From: rate, To: rate, Duration: time.Duration(pr.Messages) * pr.Interval}}
	}
	sched, err := engine.NewSchedule(segs...)
	if err != nil {
		return fmt.Errorf("load shape: %w", err)
	}
	if sched.Total() == 0 {
		return fmt.Errorf("load shape %s schedules no request (rate × duration < 1)", s.Kind())
	}
	cfg.Load = sched
	return nil
}

// describeShape says in a few words what load the run applied.
func describeShape(s profiles.Shape) string {
	switch {
	case s.Closed != nil:
		c := s.Closed
		return fmt.Sprintf("closed, concurrency %s in %d steps of %s", levels(c.Concurrency), len(c.Concurrency), profiles.FormatDuration(c.Step))
	case s.Producers != nil:
		pr := s.Producers
		return fmt.Sprintf("%d producers × %d messages every %s", pr.Count, pr.Messages, profiles.FormatDuration(pr.Interval))
	case s.Ramp != nil:
		return fmt.Sprintf("ramp %g→%g/s over %s", s.Ramp.From, s.Ramp.To, profiles.FormatDuration(s.Ramp.Over))
	case len(s.Stages) > 0:
		return fmt.Sprintf("%d stages over %s", len(s.Stages), profiles.FormatDuration(s.TotalDuration().Round(time.Millisecond)))
	}
	segs, _ := s.Open()
	if len(segs) == 1 {
		return fmt.Sprintf("constant %g/s for %s", segs[0].From, profiles.FormatDuration(s.Duration))
	}
	return s.Kind()
}

// levels lists concurrency levels in words: all of a short list
// ("10, 20, 40"), the first two and the last of a long one
// ("100, 200, … 1000").
func levels(c []int) string {
	parts := make([]string, 0, 4)
	for i, n := range c {
		if len(c) > 4 && i >= 2 && i < len(c)-1 {
			if i == 2 {
				parts = append(parts, "…")
			}
			continue
		}
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.ReplaceAll(strings.Join(parts, ", "), "…, ", "… ")
}
