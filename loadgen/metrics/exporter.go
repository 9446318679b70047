package metrics

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// latencyBuckets are the classic histogram buckets, in seconds, for
// Prometheus servers that do not scrape native histograms: from half a
// millisecond, below any real round trip, to a minute, past any sensible
// timeout.
func latencyBuckets() []float64 {
	return []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60}
}

// Exporter holds vesload's live metrics in its own registry, so that two
// runs in one process (tests) never collide and nothing global is touched.
type Exporter struct {
	reg     *prometheus.Registry
	handler http.Handler

	requests      *prometheus.CounterVec
	latency       prometheus.Histogram
	service       prometheus.Histogram
	poolExhausted prometheus.Counter
	inFlight      prometheus.Gauge
	targetRPS     prometheus.Gauge
	achievedRPS   prometheus.Gauge
	lagP50        prometheus.Gauge
	lagP99        prometheus.Gauge
	lagMax        prometheus.Gauge
	targetCPU     prometheus.Gauge
	targetRSS     prometheus.Gauge
	targetSeries  *prometheus.GaugeVec
	genCPU        prometheus.Gauge
	genRSS        prometheus.Gauge

	mu       sync.Mutex
	counters map[requestKey]prometheus.Counter // resolved label children
	series   map[string]prometheus.Gauge       // resolved target series
}

// New builds an Exporter with its metrics and the Go runtime and process
// collectors (the generator's own go_* and process_* series).
func New() *Exporter {
	e := &Exporter{
		reg:      prometheus.NewRegistry(),
		counters: make(map[requestKey]prometheus.Counter),
		series:   make(map[string]prometheus.Gauge),
	}
	e.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "vesload_requests_total",
		Help: "Requests completed or failed, by outcome (ok or an error class such as http_503, timeout, pool_exhausted) and HTTP status code (none without a response).",
	}, []string{"outcome", "code"})
	e.latency = newHistogram("vesload_request_latency_seconds",
		"Request latency measured from each request's due time (coordinated omission corrected).")
	e.service = newHistogram("vesload_request_service_seconds",
		"Request service time measured from the moment the request was written.")
	e.poolExhausted = newCounter("vesload_pool_exhausted_total",
		"Due requests that found no free connection within the pool wait.")
	e.inFlight = newGauge("vesload_in_flight", "Requests written and not yet answered.")
	e.targetRPS = newGauge("vesload_target_rps", "Request rate the schedule asks for, per second.")
	e.achievedRPS = newGauge("vesload_achieved_rps", "Request rate sent in the last second.")
	lag := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "vesload_dispatch_lag_seconds",
		Help: "How late the generator dispatched requests over the last second (quantile 1 is the maximum).",
	}, []string{"quantile"})
	e.lagP50, e.lagP99, e.lagMax = lag.WithLabelValues("0.5"), lag.WithLabelValues("0.99"), lag.WithLabelValues("1")
	e.targetCPU = newGauge("vesload_target_cpu_percent", "CPU of the system under test, 100 = one core.")
	e.targetRSS = newGauge("vesload_target_rss_bytes", "Resident memory of the system under test.")
	e.targetSeries = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "vesload_target_series",
		Help: "Named series sampled from the target (PromQL queries, system_cpu_pct, jvm_memory_used_bytes).",
	}, []string{"series"})
	e.genCPU = newGauge("vesload_generator_cpu_percent", "CPU of vesload itself, 100 = one core.")
	e.genRSS = newGauge("vesload_generator_rss_bytes", "Resident memory of vesload itself.")
	e.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		e.requests, e.latency, e.service, e.poolExhausted, e.inFlight, e.targetRPS, e.achievedRPS,
		lag, e.targetCPU, e.targetRSS, e.targetSeries, e.genCPU, e.genRSS,
	)
	e.handler = promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{
		Registry:      e.reg,
		ErrorHandling: promhttp.ContinueOnError,
	})
	return e
}

// Handler serves the metrics in whatever exposition format the scraper
// negotiates (protobuf carries the native histograms).
func (e *Exporter) Handler() http.Handler { return e.handler }

// newHistogram builds a latency histogram with both native buckets (about
// 10 % wide, at most 160 of them) and the classic ones.
func newHistogram(name, help string) prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:                            name,
		Help:                            help,
		Buckets:                         latencyBuckets(),
		NativeHistogramBucketFactor:     1.1,
		NativeHistogramMaxBucketNumber:  160,
		NativeHistogramMinResetDuration: time.Hour,
	})
}

func newGauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
}

func newCounter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}
