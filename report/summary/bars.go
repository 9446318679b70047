package summary

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// bucket is one bar of the ASCII histogram: the values up to upperUs
// (microseconds) above the previous bucket's bound.
type bucket struct {
	upperUs int64
	count   int64
}

// logBuckets folds h into n buckets spaced logarithmically between its
// minimum and maximum. Latency has a long tail: linear buckets would put
// nearly every request in the first bar and leave the tail unreadable,
// while log spacing shows the body and the tail at once.
func logBuckets(h *hdrhistogram.PackedHistogram, n int) []bucket {
	if h == nil || h.TotalCount() == 0 || n < 1 {
		return nil
	}
	lo, hi := max(h.Min(), 1), h.Max()
	if hi <= lo {
		return []bucket{{upperUs: hi, count: h.TotalCount()}}
	}
	buckets := make([]bucket, n)
	ratio := float64(hi) / float64(lo)
	for i := range buckets {
		buckets[i].upperUs = int64(math.Round(float64(lo) * math.Pow(ratio, float64(i+1)/float64(n))))
	}
	buckets[n-1].upperUs = hi
	i := 0
	g := result.LayoutOf(h.LowestTrackableValue(), h.SignificantFigures())
	for value, count := range h.ForEachBucket {
		for i < n-1 && g.HighestEquivalent(value) > buckets[i].upperUs {
			i++
		}
		buckets[i].count += count
	}
	return buckets
}

// barWidth is the length of the longest bar in characters.
const barWidth = 40

// writeBars prints buckets hey-style: upper bound, count, bar.
func writeBars(t *textWriter, indent string, buckets []bucket) {
	var top int64
	labels := make([]string, len(buckets))
	counts := make([]string, len(buckets))
	lw, cw := 0, 0
	for i, b := range buckets {
		top = max(top, b.count)
		labels[i] = fmtBound(float64(b.upperUs) / 1000)
		counts[i] = strconv.FormatInt(b.count, 10)
		lw, cw = max(lw, len(labels[i])), max(cw, len(counts[i]))
	}
	for i, b := range buckets {
		n := 0
		if top > 0 && b.count > 0 {
			n = max(1, int(math.Round(barWidth*float64(b.count)/float64(top))))
		}
		line := indent + fmt.Sprintf("%*s [%*s] |", lw, labels[i], cw, counts[i]) + strings.Repeat("#", n)
		t.Println(line)
	}
}

// fmtBound formats a bucket bound in ms with the precision its magnitude
// needs, so that neighbouring sub-millisecond bounds stay distinct.
func fmtBound(ms float64) string {
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64)
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	case ms >= 1:
		return strconv.FormatFloat(ms, 'f', 2, 64)
	}
	return strconv.FormatFloat(ms, 'f', 3, 64)
}
