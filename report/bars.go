package report

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
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
	g := geometryOf(h)
	for value, count := range h.ForEachBucket {
		for i < n-1 && g.highestEquivalent(value) > buckets[i].upperUs {
			i++
		}
		buckets[i].count += count
	}
	return buckets
}

// geometry is the bucket layout of an HdrHistogram, from its lowest
// discernible value and significant digits (the layout every
// implementation shares), so that a bucket's range is known without a
// dense copy of the histogram.
type geometry struct {
	unit    uint // log2 of the lowest discernible value, rounded down
	subHalf uint // log2 of half the sub-buckets per bucket
}

func geometryOf(h *hdrhistogram.PackedHistogram) geometry {
	// Single-unit resolution up to 2·10^digits needs this many sub-buckets.
	single := 2 * math.Pow(10, float64(h.SignificantFigures()))
	subCount := uint(math.Ceil(math.Log2(single)))
	return geometry{unit: uint(bits.Len64(uint64(max(h.LowestTrackableValue(), 1)))) - 1, subHalf: max(subCount, 1) - 1}
}

// highestEquivalent is the largest value counted in the same bucket as v,
// the lowest value of a bucket: the bucket's width is one unit in the
// first bucket and doubles with each bucket after it.
func (g geometry) highestEquivalent(v int64) int64 {
	mask := uint64(1)<<(g.subHalf+1) - 1
	bucket := max(bits.Len64(uint64(v)|mask<<g.unit)-int(g.unit+g.subHalf+1), 0)
	return v + int64(1)<<(uint(bucket)+g.unit) - 1
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
		t.println(line)
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
