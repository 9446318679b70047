package testserver

import (
	"net/http"
	"strconv"

	"github.com/vesload/vesload/internal/promtext"
	"github.com/vesload/vesload/internal/selfmetrics"
)

// writeMetrics renders the emulator's counters in the Prometheus text
// format. It reads the same atomics as Stats at scrape time, so the
// request path pays nothing for metrics.
func writeMetrics(s *Server, w *promtext.Writer) {
	c := &s.counters
	counter := func(name, help string, v int64) { w.Single("ves_emulator_"+name, promtext.Counter, help, float64(v)) }
	gauge := func(name, help string, v int64) { w.Single("ves_emulator_"+name, promtext.Gauge, help, float64(v)) }

	header := false
	for code := range c.status {
		n := c.status[code].Load()
		if n <= 0 {
			continue
		}
		if !header {
			w.Header("ves_emulator_requests_total", promtext.Counter, "Requests to collector routes by HTTP status.")
			header = true
		}
		w.Sample("ves_emulator_requests_total", []promtext.Label{{Name: "code", Value: strconv.Itoa(code)}}, float64(n))
	}
	counter("events_total", "Events in requests that passed validation.", c.events.Load())
	counter("accepted_events_total", "Events in requests answered 200/202.", c.acceptedEvents.Load())
	counter("duplicate_event_ids_total", "Valid events whose eventId was seen before.", c.duplicates.Load())
	counter("backend_rejected_total", "Requests failed because the backend's pending-acquire queue was full.", c.backendRejected.Load())
	counter("injected_errors_total", "Publish failures injected by the error rate.", c.injected.Load())
	counter("invalid_requests_total", "Event requests refused by validation.", c.invalid.Load())
	gauge("in_flight", "Event requests being handled.", c.inFlight.Load())
	gauge("max_in_flight", "Most event requests handled at once since start.", c.maxInFlight.Load())
	inUse, waiting := s.backendState()
	gauge("backend_connections_in_use", "Backend connections held by publishing requests.", int64(inUse))
	gauge("backend_waiting", "Requests waiting for a backend connection.", int64(waiting))
	pool := 0
	if s.backend != nil {
		pool = s.backend.pool
	}
	gauge("backend_pool_size", "Backend connections in the pool (0: no backend model).", int64(pool))
	selfmetrics.Write(w)
}

// newMetricsHandler builds the /metrics handler: the emulator's counters,
// with the Go runtime and process series beside them.
func newMetricsHandler(s *Server) http.Handler {
	return promtext.Handler(func(w *promtext.Writer) { writeMetrics(s, w) })
}
