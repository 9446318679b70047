package result

import (
	"strconv"
	"strings"
	"testing"
)

// Summarize fills every listed percentile from the histogram, each in its
// own field, in increasing order, and each label names its percentile.
func TestPercentilesAreSummarized(t *testing.T) {
	t.Parallel()
	h := NewHistogram()
	for v := int64(1); v <= 100_000; v++ {
		h.RecordValue(v) // 1 µs … 100 ms, uniform
	}
	s := Summarize(h)
	ps := Percentiles()
	if len(ps) != 5 {
		t.Fatalf("%d percentiles, want p50, p90, p95, p99, p99.9", len(ps))
	}
	prev := 0.0
	for _, p := range ps {
		q, err := strconv.ParseFloat(strings.TrimPrefix(p.Label, "p"), 64)
		if err != nil || q != p.Q {
			t.Errorf("label %q names %v, not its percentile %v", p.Label, q, p.Q)
		}
		want := float64(h.ValueAtPercentile(p.Q)) / 1000
		if got := p.Of(s); got != want || got <= prev {
			t.Errorf("%s = %v ms, want %v ms, above the one before (%v)", p.Label, got, want, prev)
		}
		prev = p.Of(s)
	}
}
