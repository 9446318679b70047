package metrics

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// latencyBuckets are the classic histogram buckets, in seconds, that the
// Grafana dashboard reads: from half a millisecond, below any real round
// trip, to a minute, past any sensible timeout.
func latencyBuckets() []float64 {
	return []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60}
}

// Exporter holds vesload's live metrics in a registry of its own, so that
// two runs in one process (tests) never collide and nothing global is
// touched. Every series the per-request path touches is resolved once;
// the latency and service-time histograms are the engine's, merged second
// by second (ObserveSecond); the exposition is only rendered when a
// scraper asks for it.
type Exporter struct {
	reg     *prometheus.Registry
	handler http.Handler

	hist          *histograms
	poolExhausted prometheus.Counter
	notSent       prometheus.Counter
	notYetDue     prometheus.Gauge
	stopped       prometheus.Gauge
	inFlight      prometheus.Gauge
	targetRPS     prometheus.Gauge
	achievedRPS   prometheus.Gauge
	lagP50        prometheus.Gauge
	lagP99        prometheus.Gauge
	lagMax        prometheus.Gauge
	targetCPU     prometheus.Gauge
	targetRSS     prometheus.Gauge
	genCPU        prometheus.Gauge
	genRSS        prometheus.Gauge

	requests     *prometheus.CounterVec
	targetSeries *prometheus.GaugeVec

	// counters maps the callers' pairs to their resolved series. It is
	// replaced, never changed, so that the per-request path reads it
	// without a lock; mu serialises the rare replacements.
	counters atomic.Pointer[map[requestKey]prometheus.Counter]

	mu     sync.Mutex
	series map[string]prometheus.Gauge // the resolved series of vesload_target_series
}

// New builds an Exporter; its handler serves the Go runtime and process
// series (the generator's own go_* and process_*) beside vesload's.
func New() *Exporter {
	e := &Exporter{reg: prometheus.NewRegistry(), series: make(map[string]prometheus.Gauge)}
	e.hist = newHistograms(time.Now())
	e.reg.MustRegister(e.hist)
	e.poolExhausted = e.counter("vesload_pool_exhausted_total", "Due requests that found no free connection within the pool wait.")
	e.notSent = e.counter("vesload_requests_not_sent_total",
		"Due requests that were never sent (pool exhausted, no connection); they are not in the latency histogram.")
	e.notYetDue = e.gauge("vesload_requests_not_yet_due", "Requests of the schedule not yet due: the run goes on.")
	e.stopped = e.gauge("vesload_requests_stopped", "Requests of the schedule not sent because the run stopped before they were due.")
	e.inFlight = e.gauge("vesload_in_flight", "Requests written and not yet answered.")
	e.targetRPS = e.gauge("vesload_target_rps", "Request rate the schedule asks for, per second.")
	e.achievedRPS = e.gauge("vesload_achieved_rps", "Request rate sent in the last second.")
	e.targetCPU = e.gauge("vesload_target_cpu_percent", "CPU of the system under test, 100 = one core.")
	e.targetRSS = e.gauge("vesload_target_rss_bytes", "Resident memory of the system under test.")
	e.genCPU = e.gauge("vesload_generator_cpu_percent", "CPU of vesload itself, 100 = one core.")
	e.genRSS = e.gauge("vesload_generator_rss_bytes", "Resident memory of vesload itself.")
	lag := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "vesload_dispatch_lag_seconds",
		Help: "How late the generator dispatched requests over the last second, by statistic (p50, p99, max).",
	}, []string{"stat"}) // "quantile" is reserved for summaries: promtool refuses it on a gauge
	e.lagP50, e.lagP99, e.lagMax = lag.WithLabelValues("p50"), lag.WithLabelValues("p99"), lag.WithLabelValues("max")
	e.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "vesload_requests_total",
		Help: "Requests completed or failed, by outcome (ok or an error class such as http_503, timeout, pool_exhausted) and HTTP status code (none without a response).",
	}, []string{"code", "outcome"})
	e.targetSeries = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "vesload_target_series",
		Help: "Named series sampled from the target (PromQL queries, system_cpu_pct, jvm_memory_used_bytes).",
	}, []string{"series"})
	e.reg.MustRegister(lag, e.requests, e.targetSeries,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	e.counters.Store(&map[requestKey]prometheus.Counter{})
	e.handler = promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
	return e
}

// Handler serves the metrics in the format the scraper asks for: the
// Prometheus text format, OpenMetrics, or the delimited protobuf
// exposition (the one that carries native histograms).
func (e *Exporter) Handler() http.Handler { return e.handler }

// Registry is the exporter's own registry, for a server that publishes
// more series beside vesload's.
func (e *Exporter) Registry() *prometheus.Registry { return e.reg }

func (e *Exporter) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	e.reg.MustRegister(c)
	return c
}

func (e *Exporter) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	e.reg.MustRegister(g)
	return g
}
