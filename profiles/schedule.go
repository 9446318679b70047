package profiles

import (
	"math"
	"time"
)

// integral is the number of arrivals the segments schedule, before
// flooring: the area under the piecewise-linear rate.
func integral(segs []Segment) float64 {
	var n float64
	for i := range segs {
		n += segs[i].count()
	}
	return n
}

// count is the area under one segment's rate.
func (s Segment) count() float64 {
	return (s.From + s.To) / 2 * s.Duration.Seconds()
}

// totalOf floors the integral, forgiving the last bits of float error so
// that 1000 requests over 150 s (6.666… rps) schedule 1000, not 999.
func totalOf(segs []Segment) int64 {
	n := integral(segs)
	if !(n > 0) {
		return 0
	}
	return int64(math.Floor(n + n*1e-12 + 1e-9))
}

// DueTime is the time, from the start of the schedule, at which request n
// (0-based) is due under the piecewise-linear rate of segs: the inverse of
// the cumulative count N(t) = ∫rate, so request n is due when N(t) = n.
// It returns false when n is negative or past the end of the schedule
// (n ≥ the floor of the integral), so exactly TotalRequests requests are
// due. It is pure, allocation-free and O(len(segs)), for use on the
// engine's hot path.
func DueTime(segs []Segment, n int64) (time.Duration, bool) {
	if n < 0 || n >= totalOf(segs) {
		return 0, false
	}
	x := float64(n)
	var cum float64
	var start time.Duration
	for i := range segs {
		s := &segs[i]
		c := s.count()
		if x < cum+c || i == len(segs)-1 {
			t := s.inverse(x - cum)
			return start + time.Duration(math.Round(t*1e9)), true
		}
		cum += c
		start += s.Duration
	}
	return 0, false
}

// inverse solves N(t) = m within one segment for t in seconds, where
// N(t) = a·t + b·t²/2 with a the starting rate and b the slope. It uses
// the form t = 2m / (a + √(a² + 2bm)), which stays accurate when b is
// tiny or zero (no cancellation) and handles falling ramps. The result is
// clamped to the segment, absorbing float error at its end.
func (s *Segment) inverse(m float64) float64 {
	d := s.Duration.Seconds()
	if m <= 0 || d <= 0 {
		return 0
	}
	a := s.From
	b := (s.To - s.From) / d
	disc := a*a + 2*b*m
	if disc < 0 {
		disc = 0
	}
	den := a + math.Sqrt(disc)
	if !(den > 0) {
		return d
	}
	t := 2 * m / den
	if t > d {
		return d
	}
	return t
}
