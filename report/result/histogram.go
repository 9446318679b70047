package result

import (
	"errors"
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The geometry every vesload histogram uses (docs/ARCHITECTURE.md, "Measurements"): values in
// microseconds from 1 µs to 10 minutes with 3 significant digits. Memory
// is constant whatever the run length, and histograms of the same geometry
// merge without loss.
const (
	HistogramLowestUs  = 1
	HistogramHighestUs = 10 * 60 * 1000 * 1000
	HistogramSigFigs   = 3
)

// ErrNoHistogram is returned by DecodeHistogram for an empty string: the
// result carries no distribution (nothing was recorded, or an older
// writer left it out), which renderers treat as "not available" rather
// than as corruption.
var ErrNoHistogram = errors.New("no histogram")

// NewHistogram returns an empty histogram of the standard geometry, so
// that the engine, merges and tests all record into comparable shapes.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistogramLowestUs, HistogramHighestUs, HistogramSigFigs)
}

// EncodeHistogram returns h as base64 text of HdrHistogram's V2 compressed
// encoding, the form Result.Histograms carries and other HdrHistogram
// tools read. A nil histogram encodes as "". It builds a compressor for
// the one histogram; a writer of several uses one HistogramEncoder.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	var e HistogramEncoder
	return e.Encode(h)
}

// DecodeHistogram reverses EncodeHistogram. It returns ErrNoHistogram for
// an empty string and a wrapped error for text that is not a V2 compressed
// histogram; it never panics on bad input.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	return decodeWith(s, hdrhistogram.Decode)
}

// DecodePackedHistogram is DecodeHistogram into hdrhistogram-go's sparse
// form, whose memory follows the populated buckets (a few kB) rather than
// the geometry (172 kB for the standard one): for readers that only query.
func DecodePackedHistogram(s string) (*hdrhistogram.PackedHistogram, error) {
	return decodeWith(s, hdrhistogram.DecodePacked)
}

// decodeWith decodes s with one of hdrhistogram-go's decoders.
func decodeWith[H any](s string, decode func([]byte) (*H, error)) (*H, error) {
	if s == "" {
		return nil, ErrNoHistogram
	}
	h, err := decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// Summarize reads the summary of a histogram whose values are in
// microseconds and returns it in milliseconds, the unit of every latency
// figure in the result. An empty or nil histogram gives a zero Summary
// (Count 0), never NaN.
func Summarize(h *hdrhistogram.Histogram) Summary {
	if h == nil || h.TotalCount() == 0 {
		return Summary{}
	}
	ps := Percentiles()
	qs := make([]float64, len(ps))
	for i, p := range ps {
		qs[i] = p.Q
	}
	v := h.ValueAtPercentilesSlice(qs)
	var r MeanMaxReader
	mean, max := r.MeanMax(h)
	if math.IsNaN(mean) || math.IsInf(mean, 0) {
		mean = 0
	}
	s := Summary{Count: h.TotalCount(), Min: usToMs(h.Min()), Avg: mean / 1000, Max: usToMs(max)}
	for i, p := range ps {
		*p.Field(&s) = usToMs(v[i])
	}
	return s
}

func usToMs(us int64) float64 { return float64(us) / 1000 }

// MeanMaxReader reads the mean and the largest value of histograms, the
// same figures as their Mean and Max, through one walk of the counts
// into a sparse copy it keeps for the next call. The library's Mean and
// Max each visit every bucket up to the largest value and compute its
// value range on the way, which made them most of the work of closing a
// second at low rates. Its zero value is ready; it is not safe for
// concurrent use.
type MeanMaxReader struct {
	sparse *hdrhistogram.PackedHistogram
}

// MeanMax returns h's mean and largest value, 0 and 0 when h is empty.
func (r *MeanMaxReader) MeanMax(h *hdrhistogram.Histogram) (mean float64, max int64) {
	if h.TotalCount() == 0 {
		return 0, 0
	}
	lo, hi, sig := h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures()
	p := r.sparse
	if p == nil || p.LowestTrackableValue() != lo || p.HighestTrackableValue() != hi || p.SignificantFigures() != sig {
		if lo < 1 || sig < 1 || sig > 5 {
			return h.Mean(), h.Max()
		}
		p = hdrhistogram.NewPacked(lo, hi, int(sig))
		r.sparse = p
	}
	p.Reset()
	if dropped := p.MergeFrom(h); dropped != 0 || p.TotalCount() != h.TotalCount() {
		return h.Mean(), h.Max()
	}
	return p.Mean(), p.Max()
}
