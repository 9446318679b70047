package profiles

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// Shape is the load shape of a run. Exactly one form is set:
//
//   - constant: RPS (or Requests) with Duration;
//   - Stages: consecutive constant steps and linear ramps;
//   - Ramp: one linear arrival-rate ramp;
//   - Closed: a closed-model concurrency ramp;
//   - Producers: independent producers sending at a fixed interval.
//
// The first three are open-model: Open turns them into the segments of a
// piecewise-linear arrival rate, from which the engine's schedule gives each request's
// due time.
type Shape struct {
	// RPS is the constant arrival rate in requests per second.
	RPS float64 `yaml:"rps,omitempty"`
	// Requests is the alternative to RPS: this many requests spread
	// evenly over Duration (rate Requests/Duration, exact in count).
	Requests int64 `yaml:"requests,omitempty"`
	// Duration is how long the constant rate lasts.
	Duration time.Duration `yaml:"duration,omitempty"`
	// Stages run one after the other.
	Stages []Stage `yaml:"stages,omitempty"`
	// Ramp changes the rate linearly.
	Ramp *Ramp `yaml:"ramp,omitempty"`
	// Closed keeps a fixed number of requests in flight per step.
	Closed *Closed `yaml:"closed,omitempty"`
	// Producers sends from independent producers at a fixed interval.
	Producers *Producers `yaml:"producers,omitempty"`
}

// Stage is one step of a staged shape: either a constant rate (RPS or
// Requests, with Duration) or a linear Ramp, so ramps chain with steps.
// A constant stage of 0 rps is a pause.
type Stage struct {
	RPS      float64       `yaml:"rps,omitempty"`
	Requests int64         `yaml:"requests,omitempty"`
	Duration time.Duration `yaml:"duration,omitempty"`
	Ramp     *Ramp         `yaml:"ramp,omitempty"`
}

// Ramp is a linear change of the arrival rate from From to To requests
// per second over Over; it schedules (From+To)/2 × Over requests.
type Ramp struct {
	From float64       `yaml:"from"`
	To   float64       `yaml:"to"`
	Over time.Duration `yaml:"over,omitempty"`
}

// Closed is the closed-model concurrency ramp the ingress tests ran: each
// level of Concurrency keeps that many requests in flight for Step, and
// results are reported per step.
type Closed struct {
	Concurrency []int         `yaml:"concurrency,omitempty"`
	Step        time.Duration `yaml:"step,omitempty"`
}

// Producers is the high-volume producer test: Count independent producers
// each send Messages messages, one every Interval.
type Producers struct {
	Count    int           `yaml:"count,omitempty"`
	Messages int64         `yaml:"messages,omitempty"`
	Interval time.Duration `yaml:"interval,omitempty"`
}

// Segment is one piece of a piecewise-linear arrival rate: the rate goes
// linearly from From to To requests per second over Duration (a constant
// rate has From == To). It is the engine's own type, so that a profile and
// the run it becomes count requests by one rule.
type Segment = engine.Segment

// Shape kinds returned by Kind.
const (
	KindConstant  = "constant"
	KindStages    = "stages"
	KindRamp      = "ramp"
	KindClosed    = "closed"
	KindProducers = "producers"
)

// Kind names the form the shape uses, or "" when it is empty. When more
// than one form is set (which Validate rejects) it names the first.
func (s Shape) Kind() string {
	kinds := s.kinds()
	if len(kinds) == 0 {
		return ""
	}
	return kinds[0]
}

func (s Shape) kinds() []string {
	var k []string
	if s.RPS != 0 || s.Requests != 0 || s.Duration != 0 {
		k = append(k, KindConstant)
	}
	if len(s.Stages) > 0 {
		k = append(k, KindStages)
	}
	if s.Ramp != nil {
		k = append(k, KindRamp)
	}
	if s.Closed != nil {
		k = append(k, KindClosed)
	}
	if s.Producers != nil {
		k = append(k, KindProducers)
	}
	return k
}

// IsZero reports whether no load shape is set, leaving it to the command
// line.
func (s Shape) IsZero() bool { return len(s.kinds()) == 0 }

// Open returns the arrival-rate segments of an open-model shape (constant,
// stages, ramp). It returns ok false for the closed and producer shapes and
// for an empty shape, whose requests are not scheduled by arrival rate.
func (s Shape) Open() (segs []Segment, ok bool) {
	switch s.Kind() {
	case KindConstant:
		r := rate(s.RPS, s.Requests, s.Duration)
		return []Segment{{From: r, To: r, Duration: s.Duration}}, true
	case KindRamp:
		return []Segment{s.Ramp.segment()}, true
	case KindStages:
		segs = make([]Segment, 0, len(s.Stages))
		for _, st := range s.Stages {
			segs = append(segs, st.segment())
		}
		return segs, true
	}
	return nil, false
}

func (st Stage) segment() Segment {
	if st.Ramp != nil {
		return st.Ramp.segment()
	}
	r := rate(st.RPS, st.Requests, st.Duration)
	return Segment{From: r, To: r, Duration: st.Duration}
}

func (r *Ramp) segment() Segment {
	return Segment{From: r.From, To: r.To, Duration: r.Over}
}

// rate is the constant rate of an RPS or Requests-over-Duration step.
func rate(rps float64, requests int64, d time.Duration) float64 {
	if requests != 0 && d > 0 {
		return float64(requests) / d.Seconds()
	}
	return rps
}

// TotalRequests is how many requests the shape schedules: for open shapes
// the floor of the integral of the rate (R rps for D seconds schedules
// exactly R×D; a ramp from 100 to 1000 over 150 s, 82,500), for producers
// Count × Messages, and 0 for the closed shape, which is bounded by time.
func (s Shape) TotalRequests() int64 {
	if segs, ok := s.Open(); ok {
		return totalOf(segs)
	}
	if s.Producers != nil {
		return int64(s.Producers.Count) * s.Producers.Messages
	}
	return 0
}

// TotalDuration is how long the schedule lasts: the sum of the open
// segments, the closed steps, or Messages × Interval for producers.
func (s Shape) TotalDuration() time.Duration {
	if segs, ok := s.Open(); ok {
		var d time.Duration
		for _, sg := range segs {
			d += sg.Duration
		}
		return d
	}
	if c := s.Closed; c != nil {
		return time.Duration(len(c.Concurrency)) * c.Step
	}
	if p := s.Producers; p != nil {
		return time.Duration(p.Messages) * p.Interval
	}
	return 0
}

// WithDuration returns the shape stretched or shortened to last d, so a
// long profile can run briefly (-duration 10s): a constant shape gets
// Duration d at the same rate, stages and ramps keep their rates with
// every duration scaled in proportion, closed steps share d equally and
// producers send d/Interval messages each.
func (s Shape) WithDuration(d time.Duration) (Shape, error) {
	if d <= 0 {
		return s, fmt.Errorf("duration %s: want a positive duration", d)
	}
	total := s.TotalDuration()
	if total <= 0 {
		return s, fmt.Errorf("load shape %q has no duration to change", s.Kind())
	}
	f := float64(d) / float64(total)
	scale := func(x time.Duration) time.Duration { return time.Duration(math.Round(float64(x) * f)) }
	out := s
	switch s.Kind() {
	case KindConstant:
		out.RPS, out.Requests, out.Duration = rate(s.RPS, s.Requests, s.Duration), 0, d
	case KindRamp:
		r := *s.Ramp
		r.Over = d
		out.Ramp = &r
	case KindStages:
		out.Stages = make([]Stage, len(s.Stages))
		for i, st := range s.Stages {
			out.Stages[i] = st.scaled(scale)
		}
	case KindClosed:
		c := *s.Closed
		c.Concurrency = append([]int(nil), c.Concurrency...)
		c.Step = d / time.Duration(len(c.Concurrency))
		out.Closed = &c
	case KindProducers:
		p := *s.Producers
		p.Messages = max(1, int64(d/p.Interval))
		out.Producers = &p
	}
	return out, nil
}

func (st Stage) scaled(scale func(time.Duration) time.Duration) Stage {
	if st.Ramp != nil {
		r := *st.Ramp
		r.Over = scale(r.Over)
		return Stage{Ramp: &r}
	}
	return Stage{RPS: rate(st.RPS, st.Requests, st.Duration), Duration: scale(st.Duration)}
}

// Limits that keep every schedule computable in int64 and float64 without
// loss: more than this is a mistake rather than a test.
const (
	maxRequests = 1e12
	maxDuration = engine.MaxDuration
)

// validate checks the shape; an empty shape is valid (the command line
// gives the rate).
func (s Shape) validate() error {
	kinds := s.kinds()
	if len(kinds) > 1 {
		return fieldErr("load", "more than one load shape (%s): want exactly one of rps+duration, stages, ramp, closed, producers", strings.Join(kinds, ", "))
	}
	if len(kinds) == 0 {
		return nil
	}
	var err error
	switch kinds[0] {
	case KindConstant:
		err = validateStep("load", s.RPS, s.Requests, s.Duration, false)
	case KindRamp:
		err = s.Ramp.validate("load.ramp")
	case KindStages:
		err = validateStages(s.Stages)
	case KindClosed:
		err = s.Closed.validate()
	case KindProducers:
		err = s.Producers.validate()
	}
	if err != nil {
		return err
	}
	return s.validateTotals()
}

func (s Shape) validateTotals() error {
	if segs, ok := s.Open(); ok {
		var d float64
		for _, sg := range segs {
			d += float64(sg.Duration)
		}
		if d > float64(maxDuration) {
			return fieldErr("load", "lasts more than %s: want a shorter run", FormatDuration(maxDuration))
		}
		n := integral(segs)
		if n > maxRequests {
			return fieldErr("load", "schedules %.3g requests: want at most %.0g", n, float64(maxRequests))
		}
		if n < 1 {
			return fieldErr("load", "schedules no request: want a rate × duration of at least 1")
		}
	}
	return nil
}

func validateStep(path string, rps float64, requests int64, d time.Duration, pauseOK bool) error {
	switch {
	case rps != 0 && requests != 0:
		return fieldErr(path, "both rps and requests: want one of them with duration")
	case d <= 0:
		return fieldErr(path+".duration", "missing or not positive: want a duration such as 10m")
	case d > maxDuration:
		return fieldErr(path+".duration", "longer than %s", FormatDuration(maxDuration))
	case requests < 0 || float64(requests) > maxRequests:
		return fieldErr(path+".requests", "want a count between 1 and %.0g", float64(maxRequests))
	case rps == 0 && requests == 0 && !pauseOK:
		return fieldErr(path+".rps", "missing: want a rate in requests per second (or requests: N)")
	}
	return rateErr(path+".rps", rps)
}

// rateErr is engine.CheckRate's error at path, or nil: a profile's rates
// follow the command line's rule.
func rateErr(path string, rps float64) error {
	if err := engine.CheckRate(rps); err != nil {
		return fieldErr(path, "%v", err)
	}
	return nil
}

func (r *Ramp) validate(path string) error {
	switch {
	case r.Over <= 0:
		return fieldErr(path+".over", "missing or not positive: want a duration such as 150s")
	case r.Over > maxDuration:
		return fieldErr(path+".over", "longer than %s", FormatDuration(maxDuration))
	}
	if err := rateErr(path+".from", r.From); err != nil {
		return err
	}
	return rateErr(path+".to", r.To)
}

func validateStages(stages []Stage) error {
	for i, st := range stages {
		path := fmt.Sprintf("load.stages[%d]", i)
		if st.Ramp != nil {
			if st.RPS != 0 || st.Requests != 0 || st.Duration != 0 {
				return fieldErr(path, "a ramp stage has no rps, requests or duration: want {ramp: {from, to, over}} or {rps, duration}")
			}
			if err := st.Ramp.validate(path + ".ramp"); err != nil {
				return err
			}
			continue
		}
		if err := validateStep(path, st.RPS, st.Requests, st.Duration, true); err != nil {
			return err
		}
	}
	return nil
}

func (c *Closed) validate() error {
	if len(c.Concurrency) == 0 {
		return fieldErr("load.closed.concurrency", "missing: want a list of in-flight request counts such as [100, 200]")
	}
	for i, n := range c.Concurrency {
		if n <= 0 || n > 1_000_000 {
			return fieldErr(fmt.Sprintf("load.closed.concurrency[%d]", i), "want a count between 1 and 1000000")
		}
	}
	if c.Step <= 0 || c.Step > maxDuration {
		return fieldErr("load.closed.step", "missing or not positive: want a duration such as 30s")
	}
	if time.Duration(len(c.Concurrency)) > maxDuration/c.Step {
		return fieldErr("load.closed", "lasts more than %s", FormatDuration(maxDuration))
	}
	return nil
}

func (p *Producers) validate() error {
	switch {
	case p.Count <= 0 || p.Count > 1_000_000:
		return fieldErr("load.producers.count", "want a number of producers between 1 and 1000000")
	case p.Messages <= 0 || float64(p.Messages) > maxRequests:
		return fieldErr("load.producers.messages", "want a number of messages per producer between 1 and %.0g", float64(maxRequests))
	case p.Interval <= 0 || p.Interval > maxDuration:
		return fieldErr("load.producers.interval", "missing or not positive: want a duration such as 10ms")
	case float64(p.Count)*float64(p.Messages) > maxRequests:
		return fieldErr("load.producers", "sends more than %.0g messages", float64(maxRequests))
	case float64(p.Messages)*float64(p.Interval) > float64(maxDuration):
		return fieldErr("load.producers", "lasts more than %s", FormatDuration(maxDuration))
	}
	return nil
}

// FormatDuration writes d in its shortest time.ParseDuration form: "10m"
// rather than "10m0s", "1h" rather than "1h0m0s".
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
