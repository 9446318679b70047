package html

import (
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// spectrumMaxX is 1/(1-q) at p99.99, the right edge of the spectrum.
const spectrumMaxX = 10000

// spectrumPoints is the number of points per spectrum line, spaced
// evenly on the log axis.
const spectrumPoints = 160

// spectrum reads the percentile spectrum of h (values in µs) as points
// (1/(1-q), ms) from p0 to p99.99: the x axis stretches the tail so that
// p99, p99.9 and p99.99 get as much room as the body, the way
// HdrHistogram's plotter shows latency.
func spectrum(h *hdrhistogram.Histogram) plotter.XYs {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	xy := make(plotter.XYs, 0, spectrumPoints+1)
	for i := 0; i <= spectrumPoints; i++ {
		x := math.Pow(spectrumMaxX, float64(i)/spectrumPoints)
		q := 100 * (1 - 1/x)
		xy = append(xy, plotter.XY{X: x, Y: float64(h.ValueAtQuantile(q)) / 1000})
	}
	return xy
}

// spectrumTicks labels the log axis with percentiles instead of 1/(1-q).
func spectrumTicks() plot.ConstantTicks {
	return plot.ConstantTicks{
		{Value: 1, Label: "p0"},
		{Value: 2, Label: "p50"},
		{Value: 10, Label: "p90"},
		{Value: 100, Label: "p99"},
		{Value: 1000, Label: "p99.9"},
		{Value: 10000, Label: "p99.99"},
	}
}
