package hv

import (
	"fmt"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// collector exports the counters under the names the real collector
// uses, so dashboards and --target-metrics work against either.
type collector struct {
	s     *Server
	descs map[string]*prometheus.Desc
}

var metricHelp = []struct{ name, help, label string }{
	{"hvves_clients_rejected_cause_total", "Clients disconnected for a protocol violation, by cause.", "cause"},
	{"hvves_clients_rejected_total", "Clients disconnected for a protocol violation.", ""},
	{"hvves_connections_active", "Connections open now.", ""},
	{"hvves_connections_total", "Connections accepted since start.", ""},
	{"hvves_data_received_bytes_total", "Bytes read from clients.", ""},
	{"hvves_disconnections_total", "Connections ended.", ""},
	{"hvves_messages_dropped_cause_total", "Messages skipped, by cause.", "cause"},
	{"hvves_messages_dropped_total", "Messages skipped.", ""},
	{"hvves_messages_received_payload_bytes_total", "Payload bytes of framed messages.", ""},
	{"hvves_messages_received_total", "Framed messages received.", ""},
	{"hvves_messages_sent_topic_total", "Messages accepted and routed, by topic.", "topic"},
	{"hvves_messages_sent_total", "Messages accepted and routed.", ""},
	{"hvves_messages_to_collector_travel_time_seconds", "Time from lastEpochMicrosec to receipt.", ""},
	{"hvves_emulator_duplicate_event_ids_total", "Accepted messages whose eventId was seen before.", ""},
}

func newCollector(s *Server) *collector {
	c := &collector{s: s, descs: map[string]*prometheus.Desc{}}
	for _, m := range metricHelp {
		var labels []string
		if m.label != "" {
			labels = []string{m.label}
		}
		c.descs[m.name] = prometheus.NewDesc(m.name, m.help, labels, nil)
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.s.Stats()
	val := func(name string, t prometheus.ValueType, v int64, label ...string) {
		ch <- prometheus.MustNewConstMetric(c.descs[name], t, float64(v), label...)
	}
	counter, gauge := prometheus.CounterValue, prometheus.GaugeValue
	var rejected int64
	for cause, n := range st.ClientsRejected {
		val("hvves_clients_rejected_cause_total", counter, n, cause)
		rejected += n
	}
	val("hvves_clients_rejected_total", counter, rejected)
	val("hvves_connections_active", gauge, st.ConnectionsActive)
	val("hvves_connections_total", counter, st.ConnectionsTotal)
	val("hvves_data_received_bytes_total", counter, st.BytesReceived)
	val("hvves_disconnections_total", counter, st.Disconnections)
	for cause, n := range st.Dropped {
		val("hvves_messages_dropped_cause_total", counter, n, cause)
	}
	val("hvves_messages_dropped_total", counter, st.DroppedTotal())
	val("hvves_messages_received_payload_bytes_total", counter, st.PayloadBytes)
	val("hvves_messages_received_total", counter, st.Received)
	for topic, n := range st.ByTopic {
		val("hvves_messages_sent_topic_total", counter, n, topic)
	}
	val("hvves_messages_sent_total", counter, st.Accepted)
	val("hvves_emulator_duplicate_event_ids_total", counter, st.DuplicateEventIDs)
	ch <- prometheus.MustNewConstSummary(c.descs["hvves_messages_to_collector_travel_time_seconds"],
		uint64(st.TravelMs.Count), st.TravelMs.Avg*float64(st.TravelMs.Count)/1000,
		map[float64]float64{0.5: st.TravelMs.P50 / 1000, 0.99: st.TravelMs.P99 / 1000})
}

// metricsHandler serves the collector's metrics with the Go runtime and
// process metrics beside them, on a registry of this emulator's own.
func (s *Server) metricsHandler() (http.Handler, error) {
	reg := prometheus.NewRegistry()
	for _, c := range []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newCollector(s),
	} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("hv emulator metrics: %w", err)
		}
	}
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("hv emulator monitoring: listen on %s: %w", addr, err)
	}
	return ln, nil
}
