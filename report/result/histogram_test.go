package result

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func TestHistogramRoundTrip(t *testing.T) {
	t.Parallel()
	lat, _ := sampleHistograms(t)
	s, err := EncodeHistogram(lat)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeHistogram(s)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equals(lat) {
		t.Errorf("decoded histogram differs from the encoded one")
	}
	if Summarize(got) != Summarize(lat) {
		t.Errorf("summary changed across encoding: %+v vs %+v", Summarize(got), Summarize(lat))
	}
}

func TestEncodeEmptyAndNilHistogram(t *testing.T) {
	t.Parallel()
	s, err := EncodeHistogram(nil)
	if err != nil || s != "" {
		t.Errorf("EncodeHistogram(nil) = %q, %v; want \"\", nil", s, err)
	}
	s, err = EncodeHistogram(NewHistogram())
	if err != nil || s == "" {
		t.Fatalf("EncodeHistogram(empty) = %q, %v", s, err)
	}
	h, err := DecodeHistogram(s)
	if err != nil || h.TotalCount() != 0 {
		t.Errorf("empty histogram decodes to %v, %v", h, err)
	}
}

func TestDecodeHistogramErrors(t *testing.T) {
	t.Parallel()
	if _, err := DecodeHistogram(""); !errors.Is(err, ErrNoHistogram) {
		t.Errorf("DecodeHistogram(\"\") = %v, want ErrNoHistogram", err)
	}
	for _, s := range []string{"!!not base64!!", "AAAA", "HISTFAAAABx4nJNpmSzMwMDAzAABMFrEtgBUAgAg"} {
		if h, err := DecodeHistogram(s); err == nil {
			t.Errorf("DecodeHistogram(%q) = %v, want an error", s, h)
		} else if errors.Is(err, ErrNoHistogram) {
			t.Errorf("DecodeHistogram(%q) says no histogram, want a decoding error", s)
		}
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	uniform := NewHistogram() // 1 ms … 100 ms, one value per µs step of 10
	for v := int64(1000); v <= 100000; v += 10 {
		if err := uniform.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	single := NewHistogram()
	if err := single.RecordValues(2500, 7); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		h    *hdrhistogram.Histogram
		want Summary
	}{
		{"nil", nil, Summary{}},
		{"empty", NewHistogram(), Summary{}},
		{"single value", single, Summary{Count: 7, Min: 2.5, Avg: 2.5, P50: 2.5, P90: 2.5, P95: 2.5, P99: 2.5, P999: 2.5, Max: 2.5}},
		{"uniform 1..100 ms", uniform, Summary{Count: 9901, Min: 1, Avg: 50.5, P50: 50.5, P90: 90.1, P95: 95.05, P99: 99.01, P999: 99.901, Max: 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Summarize(tc.h)
			if got.Count != tc.want.Count {
				t.Errorf("count = %d, want %d", got.Count, tc.want.Count)
			}
			// HDR with 3 significant digits is exact to 0.1%.
			check := func(name string, got, want float64) {
				if math.Abs(got-want) > want*0.001+1e-9 {
					t.Errorf("%s = %v ms, want %v ms within 0.1%%", name, got, want)
				}
			}
			check("min", got.Min, tc.want.Min)
			check("avg", got.Avg, tc.want.Avg)
			check("p50", got.P50, tc.want.P50)
			check("p90", got.P90, tc.want.P90)
			check("p95", got.P95, tc.want.P95)
			check("p99", got.P99, tc.want.P99)
			check("p99.9", got.P999, tc.want.P999)
			check("max", got.Max, tc.want.Max)
		})
	}
}

func TestSummaryIsOrdered(t *testing.T) {
	t.Parallel()
	lat, svc := sampleHistograms(t)
	for _, s := range []Summary{Summarize(lat), Summarize(svc)} {
		seq := []float64{s.Min, s.P50, s.P90, s.P95, s.P99, s.P999, s.Max}
		for i := 1; i < len(seq); i++ {
			if seq[i] < seq[i-1] {
				t.Errorf("summary not monotonic at %d: %+v", i, s)
			}
		}
		if s.Avg < s.Min || s.Avg > s.Max {
			t.Errorf("avg %v outside [min, max] in %+v", s.Avg, s)
		}
	}
}

func BenchmarkSummarize(b *testing.B) {
	lat, _ := sampleHistograms(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = Summarize(lat)
	}
}

func FuzzDecodeHistogram(f *testing.F) {
	lat, _ := sampleHistograms(f)
	s, err := EncodeHistogram(lat)
	if err != nil {
		f.Fatal(err)
	}
	empty, err := EncodeHistogram(NewHistogram())
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{s, empty, "", "HISTFAAAAA==", "not base64"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := DecodeHistogram(s)
		if err != nil {
			if h != nil {
				t.Fatalf("error %v with a histogram", err)
			}
			return
		}
		again, err := EncodeHistogram(h)
		if err != nil {
			t.Fatalf("decoded histogram does not encode: %v", err)
		}
		h2, err := DecodeHistogram(again)
		if err != nil {
			t.Fatalf("re-encoded histogram does not decode: %v", err)
		}
		if !h2.Equals(h) {
			t.Fatalf("re-encoded histogram decodes to a different one")
		}
		if Summarize(h2) != Summarize(h) {
			t.Fatalf("summary changed across re-encoding: %+v vs %+v", Summarize(h2), Summarize(h))
		}
	})
}

// TestMeanMaxReader: the reader gives exactly the library's Mean and Max,
// for empty, narrow, wide and other-geometry histograms, one reader
// serving them all in turn.
func TestMeanMaxReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	spread := NewHistogram()
	for range 10_000 {
		spread.RecordValue(1 + rng.Int64N(HistogramHighestUs))
	}
	skewed := NewHistogram()
	for range 10_000 {
		skewed.RecordValue(int64(math.Exp(rng.Float64() * math.Log(HistogramHighestUs))))
	}
	narrow := NewHistogram()
	narrow.RecordValues(230, 400)
	narrow.RecordValues(3_870, 2)
	top := NewHistogram()
	top.RecordValues(HistogramHighestUs, 3)
	other := hdrhistogram.New(1, 1_000_000, 2)
	other.RecordValues(77_777, 5)
	other.RecordValues(12, 9)
	var r MeanMaxReader
	for _, tc := range []struct {
		name string
		h    *hdrhistogram.Histogram
	}{
		{"empty", NewHistogram()},
		{"narrow", narrow},
		{"spread", spread},
		{"log-spread", skewed},
		{"top of range", top},
		{"other geometry", other},
		{"narrow again", narrow},
	} {
		mean, max := r.MeanMax(tc.h)
		if mean != tc.h.Mean() || max != tc.h.Max() {
			t.Errorf("%s: MeanMax = %v, %d; the library says %v, %d", tc.name, mean, max, tc.h.Mean(), tc.h.Max())
		}
		// The quantile 100 is the max too, found by the library's fast scan.
		if q := tc.h.ValueAtQuantile(100); q != tc.h.Max() {
			t.Errorf("%s: ValueAtQuantile(100) = %d, Max = %d", tc.name, q, tc.h.Max())
		}
	}
}
