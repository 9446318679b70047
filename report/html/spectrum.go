package html

import (
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// spectrumMaxX is 1/(1-q) at p99.99, the right edge of the spectrum.
const spectrumMaxX = 10000

// spectrumPoints is the number of points per spectrum line, spaced
// evenly on the log axis.
const spectrumPoints = 160

// spectrum reads the percentile spectrum of h (values in µs) as points
// (1/(1-q), ms) from p0 to p99.99: the x axis stretches the tail so that
// p99, p99.9 and p99.99 get as much room as the body, the way
// HdrHistogram's plotter shows latency. The page labels that axis with
// percentiles (p50 at 2, p90 at 10, p99 at 100, …).
func spectrum(h *hdrhistogram.Histogram) []point {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	xy := make([]point, 0, spectrumPoints+1)
	for i := 0; i <= spectrumPoints; i++ {
		x := math.Pow(spectrumMaxX, float64(i)/spectrumPoints)
		q := 100 * (1 - 1/x)
		xy = append(xy, point{X: x, Y: float64(h.ValueAtQuantile(q)) / 1000})
	}
	return xy
}
