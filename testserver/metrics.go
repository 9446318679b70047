package testserver

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// emulatorCollector publishes the emulator's counters. It reads the same
// atomics as Stats at scrape time, so the request path pays nothing for
// metrics.
type emulatorCollector struct {
	s        *Server
	requests *prometheus.Desc
	plain    []plainMetric
}

// plainMetric is one series without labels, read from the server.
type plainMetric struct {
	desc *prometheus.Desc
	typ  prometheus.ValueType
	read func(s *Server) int64
}

func newEmulatorCollector(s *Server) *emulatorCollector {
	counter := func(name, help string, read func(s *Server) int64) plainMetric {
		return plainMetric{prometheus.NewDesc("ves_emulator_"+name, help, nil, nil), prometheus.CounterValue, read}
	}
	gauge := func(name, help string, read func(s *Server) int64) plainMetric {
		return plainMetric{prometheus.NewDesc("ves_emulator_"+name, help, nil, nil), prometheus.GaugeValue, read}
	}
	return &emulatorCollector{
		s:        s,
		requests: prometheus.NewDesc("ves_emulator_requests_total", "Requests to collector routes by HTTP status.", []string{"code"}, nil),
		plain: []plainMetric{
			counter("events_total", "Events in requests that passed validation.", func(s *Server) int64 { return s.counters.events.Load() }),
			counter("accepted_events_total", "Events in requests answered 200/202.", func(s *Server) int64 { return s.counters.acceptedEvents.Load() }),
			counter("duplicate_event_ids_total", "Valid events whose eventId was seen before.", func(s *Server) int64 { return s.counters.duplicates.Load() }),
			counter("backend_rejected_total", "Requests failed because the backend's pending-acquire queue was full.",
				func(s *Server) int64 { return s.counters.backendRejected.Load() }),
			counter("injected_errors_total", "Publish failures injected by the error rate.", func(s *Server) int64 { return s.counters.injected.Load() }),
			counter("invalid_requests_total", "Event requests refused by validation.", func(s *Server) int64 { return s.counters.invalid.Load() }),
			gauge("in_flight", "Event requests being handled.", func(s *Server) int64 { return s.counters.inFlight.Load() }),
			gauge("max_in_flight", "Most event requests handled at once since start.", func(s *Server) int64 { return s.counters.maxInFlight.Load() }),
			gauge("backend_connections_in_use", "Backend connections held by publishing requests.",
				func(s *Server) int64 { inUse, _ := s.backendState(); return int64(inUse) }),
			gauge("backend_waiting", "Requests waiting for a backend connection.",
				func(s *Server) int64 { _, waiting := s.backendState(); return int64(waiting) }),
			gauge("backend_pool_size", "Backend connections in the pool (0: no backend model).", func(s *Server) int64 {
				if s.backend == nil {
					return 0
				}
				return int64(s.backend.pool)
			}),
		},
	}
}

// Describe implements prometheus.Collector.
func (c *emulatorCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.requests
	for _, m := range c.plain {
		ch <- m.desc
	}
}

// Collect implements prometheus.Collector: the status codes seen so far,
// then every plain series.
func (c *emulatorCollector) Collect(ch chan<- prometheus.Metric) {
	status := &c.s.counters.status
	for code := range status {
		if n := status[code].Load(); n > 0 {
			ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(n), strconv.Itoa(code))
		}
	}
	for _, m := range c.plain {
		ch <- prometheus.MustNewConstMetric(m.desc, m.typ, float64(m.read(c.s)))
	}
}

// newMetricsHandler builds the /metrics handler: the emulator's counters,
// with the Go runtime and process series beside them, in a registry of
// the server's own.
func newMetricsHandler(s *Server) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(newEmulatorCollector(s), collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}
