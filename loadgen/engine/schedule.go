package engine

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Segment is one piece of an open-model load shape: the arrival rate goes
// linearly from From to To requests per second over Duration. A constant
// rate has From == To; a pause has both zero.
type Segment struct {
	From, To float64
	Duration time.Duration
}

// MaxRate is the highest request rate vesload schedules, in requests per
// second: more is a mistake rather than a test, and below it every
// schedule is computable in int64 and float64 without loss.
const MaxRate = 1e7

// MaxDuration is the longest schedule vesload runs, a leap year: longer
// is a mistake rather than a test, and below it every due time and
// request count is computable in int64 and float64 without loss. REST
// profiles and HV-VES's producers are held to it alike.
const MaxDuration = 366 * 24 * time.Hour

// CheckRate is the one rule of a request rate, wherever it is given (the
// command line's --rps and --rate, a profile's shapes, a schedule's
// segments): a number of requests per second from 0 (a pause) to MaxRate.
// The caller names where the rate came from; that a run schedules any
// request at all is Arrivals' question.
func CheckRate(rps float64) error {
	if rps >= 0 && rps <= MaxRate {
		return nil
	}
	return fmt.Errorf("want a rate between 0 and %.0g requests per second", MaxRate)
}

// Schedule gives the due time of every request of an open-model run. It is
// a pure function of the request number, computed from the cumulative
// arrival count N(t) = ∫ rate dt: request n is due when N(t) = n. A run
// at R requests per second for D seconds therefore schedules exactly
// floor(R·D) requests, and a ramp schedules the area under its rate.
type Schedule struct {
	segs  []Segment
	start []time.Duration // start offset of each segment
	cum   []float64       // arrivals before each segment
	total int64
	span  time.Duration
	// shard, when it splits the run, makes this a view of one shard's
	// share: total counts the shard's requests and Due(k) is the global
	// schedule's Due(k·Count+Index) (see shard.go).
	shard Shard
}

// NewSchedule checks the segments and precomputes their offsets.
func NewSchedule(segs ...Segment) (*Schedule, error) {
	if len(segs) == 0 {
		return nil, fmt.Errorf("schedule: no load segments")
	}
	s := &Schedule{segs: append([]Segment(nil), segs...)}
	var at time.Duration
	var n float64
	for i, g := range segs {
		if g.Duration <= 0 {
			return nil, fmt.Errorf("schedule: segment %d: duration %v must be positive", i+1, g.Duration)
		}
		for _, r := range []float64{g.From, g.To} {
			if err := CheckRate(r); err != nil {
				return nil, fmt.Errorf("schedule: segment %d: rate %g: %w", i+1, r, err)
			}
		}
		s.start = append(s.start, at)
		s.cum = append(s.cum, n)
		at += g.Duration
		n += g.Count()
	}
	s.total = floorArrivals(n)
	s.span = at
	return s, nil
}

// Count is the area under the segment's rate: how many requests it
// holds before flooring.
func (g Segment) Count() float64 { return (g.From + g.To) / 2 * g.Duration.Seconds() }

// Arrivals is the number of requests segs schedule: the area under their
// rate, floored. It is the one rule by which profiles, import-jmx and the
// engine count requests, so that they never disagree.
func Arrivals(segs ...Segment) int64 {
	var n float64
	for _, g := range segs {
		n += g.Count()
	}
	return floorArrivals(n)
}

// floorArrivals floors a count of arrivals, forgiving the last bits of
// float error so that 1000 requests over 150 s (6.666… per second)
// schedule 1000, not 999, and 100 per second for 600 s schedule 60000.
func floorArrivals(n float64) int64 {
	if !(n > 0) {
		return 0
	}
	return int64(math.Floor(n + n*1e-12 + 1e-9))
}

// Constant is the schedule of rps requests per second for d.
func Constant(rps float64, d time.Duration) (*Schedule, error) {
	if rps == 0 {
		return nil, fmt.Errorf("schedule: a rate of 0 schedules no request")
	}
	return NewSchedule(Segment{From: rps, To: rps, Duration: d})
}

// Total is the number of requests the schedule holds (of a shard view,
// the shard's share).
func (s *Schedule) Total() int64 { return s.total }

// Span is how long the schedule lasts.
func (s *Schedule) Span() time.Duration { return s.span }

// Segments returns a copy of the schedule's segments.
func (s *Schedule) Segments() []Segment { return append([]Segment(nil), s.segs...) }

// MeanRate is the average arrival rate over the whole schedule.
func (s *Schedule) MeanRate() float64 { return float64(s.total) / s.span.Seconds() }

// RateAt is the schedule's own arrival rate at offset at from the start
// (of a shard view, the shard's share): what the live view shows as the
// target, steady on a constant schedule where a count of the requests due
// in the last second wobbles with the tick. It is 0 outside the schedule.
func (s *Schedule) RateAt(at time.Duration) float64 {
	if at < 0 || at >= s.span {
		return 0
	}
	i := sort.Search(len(s.start), func(i int) bool { return s.start[i] > at }) - 1
	g := s.segs[i]
	frac := float64(at-s.start[i]) / float64(g.Duration)
	rate := g.From + (g.To-g.From)*frac
	return rate * s.shard.Fraction()
}

// Due returns when request n (0-based) is due, as an offset from the start
// of the run; ok is false when n is past the end of the schedule. Of a
// shard view, n counts the shard's own requests and the offset is that of
// the global request Seq(n).
func (s *Schedule) Due(n int64) (due time.Duration, ok bool) {
	if n < 0 || n >= s.total {
		return 0, false
	}
	return s.dueGlobal(s.shard.Global(n)), true
}

// dueGlobal is the offset of request n of the whole (unsharded) schedule.
func (s *Schedule) dueGlobal(n int64) time.Duration {
	k := float64(n)
	// The last segment whose cumulative start is <= n holds request n;
	// segments that add no arrivals (pauses) are skipped by the search.
	i := sort.Search(len(s.cum), func(i int) bool { return s.cum[i] > k }) - 1
	for i > 0 && s.segs[i].From == 0 && s.segs[i].To == 0 {
		i--
	}
	g := s.segs[i]
	k -= s.cum[i]
	secs := g.Duration.Seconds()
	var t float64
	switch {
	case k == 0:
		t = 0
	case g.From == g.To:
		t = k / g.From
	default:
		// Solve From·t + a·t² = k with a = (To-From)/(2·secs), in the form
		// that stays accurate when a is small or negative.
		a := (g.To - g.From) / (2 * secs)
		disc := g.From*g.From + 4*a*k
		if disc < 0 {
			disc = 0
		}
		t = 2 * k / (g.From + math.Sqrt(disc))
	}
	if t > secs {
		t = secs
	}
	return s.start[i] + time.Duration(t*float64(time.Second))
}
