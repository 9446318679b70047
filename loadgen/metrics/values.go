package metrics

import (
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/internal/promtext"
)

// counter is a monotonic count, safe for concurrent use.
type counter struct{ n atomic.Uint64 }

func (c *counter) inc()        { c.n.Add(1) }
func (c *counter) get() uint64 { return c.n.Load() }

// gauge holds a float64 that is set as a whole, safe for concurrent use.
type gauge struct{ bits atomic.Uint64 }

func (g *gauge) set(v float64) { g.bits.Store(math.Float64bits(v)) }
func (g *gauge) get() float64  { return math.Float64frombits(g.bits.Load()) }

// Native bucket layout: schema 3 (buckets about 9 % wide, the
// resolution a bucket factor of 1.1 asks for) from 2^-20 s (about a
// microsecond; anything shorter goes to the zero bucket) to 2^12 s (about
// 68 minutes; anything longer is counted in the last bucket). At most
// maxNativeBuckets are exposed: past that, pairs of buckets are merged.
const (
	nativeSchema     = 3
	nativeMinIndex   = -159 // the bucket (2^-20, 2^(-159/8)]
	nativeMaxIndex   = 96   // the bucket (2^(95/8), 2^12]
	maxNativeBuckets = 160
)

// nativeZeroThreshold is the zero bucket's width, 2^-20 s.
var nativeZeroThreshold = math.Exp2(-20)

// histogram counts durations into classic buckets and native ones, in
// seconds, without allocating. Observations take a read lock only so
// that a scrape sees the buckets, count and sum of one moment (Prometheus
// rejects a native histogram whose buckets do not add up to its count).
type histogram struct {
	mu      sync.RWMutex
	bounds  []float64       // classic upper bounds, ascending
	buckets []atomic.Uint64 // classic, per bucket, not cumulative; the last is +Inf
	native  []atomic.Uint64 // native, indexes nativeMinIndex..nativeMaxIndex
	zero    atomic.Uint64   // native zero bucket
	sumBits atomic.Uint64   // the sum of observations, float64 seconds
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{
		bounds:  bounds,
		buckets: make([]atomic.Uint64, len(bounds)+1),
		native:  make([]atomic.Uint64, nativeMaxIndex-nativeMinIndex+1),
	}
}

// observe records one duration: into the first classic bucket whose upper
// bound it does not exceed, as Prometheus' le ("less or equal") says, and
// into its native bucket.
func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.buckets[sort.SearchFloat64s(h.bounds, s)].Add(1)
	if s <= nativeZeroThreshold {
		h.zero.Add(1)
	} else {
		ix := min(promtext.NativeIndex(s, nativeSchema), nativeMaxIndex)
		h.native[ix-nativeMinIndex].Add(1)
	}
	for {
		old := h.sumBits.Load()
		if h.sumBits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+s)) {
			return
		}
	}
}

// snapshot reads the histogram at one moment.
func (h *histogram) snapshot() (classic, native []uint64, zero uint64, sum float64) {
	classic, native = make([]uint64, len(h.buckets)), make([]uint64, len(h.native))
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.buckets {
		classic[i] = h.buckets[i].Load()
	}
	for i := range h.native {
		native[i] = h.native[i].Load()
	}
	return classic, native, h.zero.Load(), math.Float64frombits(h.sumBits.Load())
}

// write renders the histogram family: cumulative classic buckets, and
// the native ones where the scraper reads them (protobuf).
func (h *histogram) write(w *promtext.Writer, name, help string) {
	classic, native, zero, sum := h.snapshot()
	v := promtext.HistogramValue{Bounds: h.bounds, Cumulative: make([]uint64, len(h.bounds)), Sum: sum}
	for i, n := range classic {
		v.Count += n
		if i < len(v.Cumulative) {
			v.Cumulative[i] = v.Count
		}
	}
	var indexes []int32
	var counts []uint64
	for i, n := range native {
		if n > 0 {
			indexes, counts = append(indexes, int32(i+nativeMinIndex)), append(counts, n)
		}
	}
	nb := promtext.BuildNative(nativeSchema, indexes, counts, nativeZeroThreshold, zero, maxNativeBuckets)
	v.Native = &nb
	w.Header(name, promtext.Histogram, help)
	w.Histogram(name, nil, v)
}
