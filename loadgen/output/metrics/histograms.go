package metrics

import (
	"math"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/vesload/vesload/report/result"
)

// Native bucket layout: schema 3 (buckets a factor 2^(1/8), about 9 %,
// wide), everything up to about a microsecond in the zero bucket, and at
// most nativeMaxBuckets buckets, past which they are widened rather than
// grow without bound.
const (
	nativeSchema     = 3
	nativeMaxBuckets = 160
)

// nativeZeroThreshold is the zero bucket's width, 2^-20 s.
var nativeZeroThreshold = math.Exp2(-20)

// histograms exports the latency and service-time histograms of the
// seconds of the timeline merged so far (docs/ARCHITECTURE.md,
// "Observers"): the engine builds each second's histograms once, the
// exporter merges them as they come and renders them only when a
// scraper asks, as Prometheus histograms with the classic buckets the
// dashboard reads and native buckets beside them. The per-request path
// does no histogram work.
type histograms struct {
	latency, service *prometheus.Desc
	created          time.Time

	mu sync.Mutex
	// merged holds the run's distributions so far, in µs (its Latency and
	// Service only).
	merged result.Tally
}

func newHistograms(created time.Time) *histograms {
	return &histograms{
		latency: prometheus.NewDesc("vesload_request_latency_seconds",
			"Latency of requests that were sent, measured from each request's due time (coordinated omission corrected); counted once the second they were due in is final.", nil, nil),
		service: prometheus.NewDesc("vesload_request_service_seconds",
			"Request service time measured from the moment the request was written; counted once the second the request was due in is final.", nil, nil),
		created: created,
		merged:  result.NewTally(),
	}
}

// add merges one second's distributions; t is only read.
func (h *histograms) add(t *result.Tally) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.Latency != nil {
		h.merged.Latency.Merge(t.Latency)
	}
	if t.Service != nil {
		h.merged.Service.Merge(t.Service)
	}
}

// Describe implements prometheus.Collector.
func (h *histograms) Describe(ch chan<- *prometheus.Desc) {
	ch <- h.latency
	ch <- h.service
}

// Collect implements prometheus.Collector.
func (h *histograms) Collect(ch chan<- prometheus.Metric) {
	h.mu.Lock()
	lat, svc := h.bins(true), h.bins(false)
	h.mu.Unlock()
	for _, m := range []struct {
		desc *prometheus.Desc
		bins []bin
	}{{h.latency, lat}, {h.service, svc}} {
		metric, err := h.metric(m.desc, m.bins)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(m.desc, err)
			continue
		}
		ch <- metric
	}
}

// bin is one bucket of a merged histogram: its values' lowest
// equivalent (the recorded µs, as far as the histogram tells them
// apart), their median equivalent and their count.
type bin struct {
	lowUs, midUs, count int64
}

// bins lists the non-empty buckets of the merged latency (or service
// time), in order; h.mu is held.
func (h *histograms) bins(latency bool) []bin {
	d := h.merged.Service
	if latency {
		d = h.merged.Latency
	}
	var out []bin
	for _, b := range d.Distribution() {
		if b.Count > 0 {
			out = append(out, bin{lowUs: b.From, midUs: b.From + (b.To-b.From+1)/2, count: b.Count})
		}
	}
	return out
}

// metric renders bins as one histogram with both layouts: the classic
// cumulative buckets of latencyBuckets and the native buckets of
// nativeSchema (widened until at most nativeMaxBuckets remain, as
// client_golang does).
func (h *histograms) metric(desc *prometheus.Desc, bins []bin) (prometheus.Metric, error) {
	var count int64
	var sumUs float64
	native := map[int]int64{}
	for _, b := range bins {
		count += b.count
		sumUs += float64(b.midUs) * float64(b.count)
		native[nativeIndex(float64(b.midUs)/1e6, nativeSchema)] += b.count
	}
	schema := int32(nativeSchema)
	for len(native) > nativeMaxBuckets && schema > -4 {
		native, schema = widen(native), schema-1
	}
	m, err := prometheus.NewConstNativeHistogram(desc, uint64(count), sumUs/1e6, native, nil, 0,
		schema, nativeZeroThreshold, h.created)
	if err != nil {
		return nil, err
	}
	var out dto.Metric
	if err := m.Write(&out); err != nil {
		return nil, err
	}
	out.Histogram.Bucket = classic(bins)
	return written{desc: desc, m: &out}, nil
}

// classic is the cumulative counts of latencyBuckets: a bin counts
// below a bound when its lowest equivalent value does.
func classic(bins []bin) []*dto.Bucket {
	bounds := latencyBuckets()
	out := make([]*dto.Bucket, len(bounds))
	var cum uint64
	i := 0
	for j, le := range bounds {
		leUs := int64(math.Round(le * 1e6))
		for ; i < len(bins) && bins[i].lowUs <= leUs; i++ {
			cum += uint64(bins[i].count)
		}
		out[j] = &dto.Bucket{UpperBound: new(le), CumulativeCount: new(cum)}
	}
	return out
}

// nativeIndex is the native bucket of a positive value v at schema s:
// bucket i holds (2^((i-1)/2^s), 2^(i/2^s)].
func nativeIndex(v float64, s int) int {
	return int(math.Ceil(math.Log2(v) * math.Exp2(float64(s))))
}

// widen halves the native buckets' resolution: bucket i of schema s is
// in bucket ⌈i/2⌉ of schema s-1.
func widen(buckets map[int]int64) map[int]int64 {
	out := make(map[int]int64, len(buckets)/2+1)
	for i, n := range buckets {
		out[(i+1)>>1] += n
	}
	return out
}

// written is a histogram rendered once for one scrape.
type written struct {
	desc *prometheus.Desc
	m    *dto.Metric
}

func (w written) Desc() *prometheus.Desc { return w.desc }

func (w written) Write(out *dto.Metric) error {
	out.Label, out.Histogram = w.m.Label, w.m.Histogram
	return nil
}
