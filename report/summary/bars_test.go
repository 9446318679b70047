package summary

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
