package testserver

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricsCollector exports the emulator's counters to Prometheus. It
// reads the same atomics as Stats at scrape time, so the request path
// pays nothing for metrics.
type metricsCollector struct {
	s *Server

	requests, events, accepted, duplicates *prometheus.Desc
	backendRejected, injected, invalid     *prometheus.Desc
	inFlight, maxInFlight                  *prometheus.Desc
	backendInUse, backendWaiting           *prometheus.Desc
	backendPool                            *prometheus.Desc
}

func newMetricsCollector(s *Server) *metricsCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("ves_emulator_"+name, help, labels, nil)
	}
	return &metricsCollector{
		s:               s,
		requests:        d("requests_total", "Requests to collector routes by HTTP status.", "code"),
		events:          d("events_total", "Events in requests that passed validation."),
		accepted:        d("accepted_events_total", "Events in requests answered 200/202."),
		duplicates:      d("duplicate_event_ids_total", "Valid events whose eventId was seen before."),
		backendRejected: d("backend_rejected_total", "Requests failed because the backend's pending-acquire queue was full."),
		injected:        d("injected_errors_total", "Publish failures injected by the error rate."),
		invalid:         d("invalid_requests_total", "Event requests refused by validation."),
		inFlight:        d("in_flight", "Event requests being handled."),
		maxInFlight:     d("max_in_flight", "Most event requests handled at once since start."),
		backendInUse:    d("backend_connections_in_use", "Backend connections held by publishing requests."),
		backendWaiting:  d("backend_waiting", "Requests waiting for a backend connection."),
		backendPool:     d("backend_pool_size", "Backend connections in the pool (0: no backend model)."),
	}
}

// Describe implements prometheus.Collector.
func (m *metricsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.requests, m.events, m.accepted, m.duplicates,
		m.backendRejected, m.injected, m.invalid, m.inFlight, m.maxInFlight,
		m.backendInUse, m.backendWaiting, m.backendPool} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *metricsCollector) Collect(ch chan<- prometheus.Metric) {
	c := &m.s.counters
	for code := range c.status {
		if n := c.status[code].Load(); n > 0 {
			ch <- prometheus.MustNewConstMetric(m.requests, prometheus.CounterValue, float64(n), strconv.Itoa(code))
		}
	}
	counter := func(d *prometheus.Desc, v int64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v))
	}
	gauge := func(d *prometheus.Desc, v int64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v))
	}
	counter(m.events, c.events.Load())
	counter(m.accepted, c.acceptedEvents.Load())
	counter(m.duplicates, c.duplicates.Load())
	counter(m.backendRejected, c.backendRejected.Load())
	counter(m.injected, c.injected.Load())
	counter(m.invalid, c.invalid.Load())
	gauge(m.inFlight, c.inFlight.Load())
	gauge(m.maxInFlight, c.maxInFlight.Load())
	inUse, waiting := m.s.backendState()
	gauge(m.backendInUse, int64(inUse))
	gauge(m.backendWaiting, int64(waiting))
	pool := 0
	if m.s.backend != nil {
		pool = m.s.backend.pool
	}
	gauge(m.backendPool, int64(pool))
}

// newMetricsHandler builds the /metrics handler on a registry of this
// emulator's own (never the global one), with the Go runtime and process
// collectors beside the emulator's counters.
func newMetricsHandler(s *Server) (http.Handler, error) {
	reg := prometheus.NewRegistry()
	for _, c := range []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newMetricsCollector(s),
	} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}
