package metrics

import (
	"math"
	"sort"
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

// histogram counts durations into fixed buckets, in seconds, without a
// lock and without allocating.
type histogram struct {
	bounds  []float64       // upper bounds, ascending
	buckets []atomic.Uint64 // per bucket, not cumulative; the last is +Inf
	sumBits atomic.Uint64   // the sum of observations, float64 seconds
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, buckets: make([]atomic.Uint64, len(bounds)+1)}
}

// observe records one duration: into the first bucket whose upper bound
// it does not exceed, as Prometheus' le ("less or equal") says.
func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	h.buckets[sort.SearchFloat64s(h.bounds, s)].Add(1)
	for {
		old := h.sumBits.Load()
		if h.sumBits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+s)) {
			return
		}
	}
}

// write renders the histogram family with its cumulative buckets. The
// count is the buckets' total, so that it always equals the +Inf bucket.
func (h *histogram) write(w *promtext.Writer, name, help string) {
	cumulative := make([]uint64, len(h.bounds))
	var total uint64
	for i := range h.buckets {
		total += h.buckets[i].Load()
		if i < len(cumulative) {
			cumulative[i] = total
		}
	}
	w.Header(name, promtext.Histogram, help)
	w.Histogram(name, nil, h.bounds, cumulative, math.Float64frombits(h.sumBits.Load()), total)
}
