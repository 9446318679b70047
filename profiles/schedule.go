package profiles

import "math"

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
