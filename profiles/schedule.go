package profiles

import "github.com/vesload/vesload/loadgen/engine"

// integral is the number of arrivals the segments schedule, before
// flooring: the area under the piecewise-linear rate.
func integral(segs []Segment) float64 {
	var n float64
	for _, g := range segs {
		n += g.Count()
	}
	return n
}

// totalOf is the number of requests the segments schedule, by the
// engine's one flooring rule.
func totalOf(segs []Segment) int64 { return engine.Arrivals(segs...) }
