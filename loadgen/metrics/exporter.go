package metrics

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/vesload/vesload/internal/promtext"
	"github.com/vesload/vesload/internal/selfmetrics"
)

// latencyBuckets are the histogram buckets, in seconds: from half a
// millisecond, below any real round trip, to a minute, past any sensible
// timeout.
func latencyBuckets() []float64 {
	return []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60}
}

// Exporter holds vesload's live metrics, so that two runs in one process
// (tests) never collide and nothing global is touched. Every figure is an
// atomic that the engine and the samplers update; the exposition is only
// rendered when a scraper asks for it.
type Exporter struct {
	handler http.Handler

	latency       *histogram
	service       *histogram
	poolExhausted counter
	inFlight      gauge
	targetRPS     gauge
	achievedRPS   gauge
	lagP50        gauge
	lagP99        gauge
	lagMax        gauge
	targetCPU     gauge
	targetRSS     gauge
	genCPU        gauge
	genRSS        gauge

	// counters maps the callers' pairs to their series. It is replaced,
	// never changed, so that the per-request path reads it without a
	// lock; mu serialises the rare replacements.
	counters atomic.Pointer[map[requestKey]*counter]

	mu       sync.Mutex
	requests map[requestLabels]*counter // the series of vesload_requests_total
	series   map[string]*gauge          // the series of vesload_target_series
}

// New builds an Exporter; its handler serves the Go runtime and process
// series (the generator's own go_* and process_*) beside vesload's.
func New() *Exporter {
	e := &Exporter{
		latency:  newHistogram(latencyBuckets()),
		service:  newHistogram(latencyBuckets()),
		requests: make(map[requestLabels]*counter),
		series:   make(map[string]*gauge),
	}
	e.counters.Store(&map[requestKey]*counter{})
	e.handler = promtext.Handler(e.write)
	return e
}

// Handler serves the metrics in the Prometheus text format, version 0.0.4.
func (e *Exporter) Handler() http.Handler { return e.handler }

// write renders every family, vesload's first (latency and service
// histograms, then the gauges), then the runtime's and the process's.
func (e *Exporter) write(w *promtext.Writer) {
	e.latency.write(w, "vesload_request_latency_seconds",
		"Request latency measured from each request's due time (coordinated omission corrected).")
	e.service.write(w, "vesload_request_service_seconds",
		"Request service time measured from the moment the request was written.")
	w.Single("vesload_achieved_rps", promtext.Gauge, "Request rate sent in the last second.", e.achievedRPS.get())
	w.Header("vesload_dispatch_lag_seconds", promtext.Gauge,
		"How late the generator dispatched requests over the last second (quantile 1 is the maximum).")
	for _, q := range []struct {
		label string
		g     *gauge
	}{{"0.5", &e.lagP50}, {"0.99", &e.lagP99}, {"1", &e.lagMax}} {
		w.Sample("vesload_dispatch_lag_seconds", []promtext.Label{{Name: "quantile", Value: q.label}}, q.g.get())
	}
	w.Single("vesload_generator_cpu_percent", promtext.Gauge, "CPU of vesload itself, 100 = one core.", e.genCPU.get())
	w.Single("vesload_generator_rss_bytes", promtext.Gauge, "Resident memory of vesload itself.", e.genRSS.get())
	w.Single("vesload_in_flight", promtext.Gauge, "Requests written and not yet answered.", e.inFlight.get())
	w.Header("vesload_pool_exhausted_total", promtext.Counter, "Due requests that found no free connection within the pool wait.")
	w.Count("vesload_pool_exhausted_total", nil, e.poolExhausted.get())
	e.writeRequests(w)
	w.Single("vesload_target_cpu_percent", promtext.Gauge, "CPU of the system under test, 100 = one core.", e.targetCPU.get())
	w.Single("vesload_target_rps", promtext.Gauge, "Request rate the schedule asks for, per second.", e.targetRPS.get())
	w.Single("vesload_target_rss_bytes", promtext.Gauge, "Resident memory of the system under test.", e.targetRSS.get())
	e.writeTargetSeries(w)
	selfmetrics.Write(w)
}
