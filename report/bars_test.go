package report

import (
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

func TestLogBuckets(t *testing.T) {
	t.Parallel()
	lat, _ := sampleHistograms(t)
	single := result.NewHistogram()
	if err := single.RecordValues(1234, 5); err != nil {
		t.Fatal(err)
	}
	zero := result.NewHistogram()
	if err := zero.RecordValues(0, 3); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		h        *hdrhistogram.Histogram
		nBuckets int
	}{
		{"sample", lat, 10},
		{"single value", single, 1},
		{"zeros", zero, 1},
		{"empty", result.NewHistogram(), 0},
		{"nil", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bs := logBuckets(packed(t, tc.h), 10)
			if len(bs) != tc.nBuckets {
				t.Fatalf("%d buckets, want %d", len(bs), tc.nBuckets)
			}
			var total int64
			for i, b := range bs {
				total += b.count
				if i > 0 && b.upperUs <= bs[i-1].upperUs {
					t.Errorf("bucket bounds not increasing at %d: %+v", i, bs)
				}
			}
			if tc.h != nil && total != tc.h.TotalCount() {
				t.Errorf("buckets hold %d values, histogram %d", total, tc.h.TotalCount())
			}
			if len(bs) > 0 && bs[len(bs)-1].upperUs != tc.h.Max() {
				t.Errorf("last bound %d, want the maximum %d", bs[len(bs)-1].upperUs, tc.h.Max())
			}
		})
	}
}

// packed is h as the text report reads it: encoded, then decoded sparse.
func packed(t *testing.T, h *hdrhistogram.Histogram) *hdrhistogram.PackedHistogram {
	t.Helper()
	if h == nil {
		return nil
	}
	enc, err := result.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	p, err := result.DecodePackedHistogram(enc)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHighestEquivalent: the bucket ranges logBuckets computes from a
// histogram's geometry are the ones the dense histogram reports, for the
// standard geometry and others.
func TestHighestEquivalent(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		lowest, highest int64
		digits          int
	}{
		{result.HistogramLowestUs, result.HistogramHighestUs, result.HistogramSigFigs},
		{1, 3_600_000_000, 2},
		{1000, 60_000_000_000, 3},
		{1, 1 << 40, 5},
		{7, 1_000_000, 1},
	} {
		h := hdrhistogram.New(g.lowest, g.highest, g.digits)
		for v := g.lowest; v < g.highest/3; v = v*17/10 + 1 {
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
		}
		p := packed(t, h)
		geo := result.LayoutOf(p.LowestTrackableValue(), p.SignificantFigures())
		n := 0
		for _, bar := range h.Distribution() {
			if bar.Count == 0 {
				continue
			}
			n++
			if got := geo.HighestEquivalent(bar.From); got != bar.To {
				t.Errorf("geometry %+v: bucket from %d ends at %d, want %d", g, bar.From, got, bar.To)
			}
		}
		if n < 10 {
			t.Errorf("geometry %+v: only %d buckets checked", g, n)
		}
	}
}
