package hv

import (
	"fmt"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Help texts of the series, under the names the real collector uses, so
// that dashboards and --target-metrics work against either.
const (
	helpRejectedCause = "Clients disconnected for a protocol violation, by cause."
	helpDroppedCause  = "Messages skipped, by cause."
	helpSentTopic     = "Messages accepted and routed, by topic."
	helpTravel        = "Time from lastEpochMicrosec to receipt."
)

// metricTravel is the collector's travel-time summary.
const metricTravel = "hvves_messages_to_collector_travel_time_seconds"

// single is one series without labels, read from a Stats snapshot.
type single struct {
	desc *prometheus.Desc
	typ  prometheus.ValueType
	read func(st *Stats) int64
}

// labelled is a counter family with one series per map entry.
type labelled struct {
	desc *prometheus.Desc
	read func(st *Stats) map[string]int64
}

// statsCollector publishes the collector's counters from one Stats
// snapshot per scrape, so that the series of a scrape agree.
type statsCollector struct {
	stats    func() Stats
	singles  []single
	labelled []labelled
	travel   *prometheus.Desc
}

func newStatsCollector(stats func() Stats) *statsCollector {
	one := func(name string, t prometheus.ValueType, help string, read func(st *Stats) int64) single {
		return single{prometheus.NewDesc(name, help, nil, nil), t, read}
	}
	by := func(name, help, label string, read func(st *Stats) map[string]int64) labelled {
		return labelled{prometheus.NewDesc(name, help, []string{label}, nil), read}
	}
	const counter, gauge = prometheus.CounterValue, prometheus.GaugeValue
	return &statsCollector{
		stats: stats,
		singles: []single{
			one("hvves_clients_rejected_total", counter, "Clients disconnected for a protocol violation.", func(st *Stats) int64 { return st.RejectedTotal() }),
			one("hvves_connections_active", gauge, "Connections open now.", func(st *Stats) int64 { return st.ConnectionsActive }),
			one("hvves_connections_total", counter, "Connections accepted since start.", func(st *Stats) int64 { return st.ConnectionsTotal }),
			one("hvves_data_received_bytes_total", counter, "Bytes read from clients.", func(st *Stats) int64 { return st.BytesReceived }),
			one("hvves_disconnections_total", counter, "Connections ended.", func(st *Stats) int64 { return st.Disconnections }),
			one("hvves_emulator_duplicate_event_ids_total", counter, "Accepted messages whose eventId was seen before.",
				func(st *Stats) int64 { return st.DuplicateEventIDs }),
			one("hvves_messages_dropped_total", counter, "Messages skipped.", func(st *Stats) int64 { return st.DroppedTotal() }),
			one("hvves_messages_received_payload_bytes_total", counter, "Payload bytes of framed messages.", func(st *Stats) int64 { return st.PayloadBytes }),
			one("hvves_messages_received_total", counter, "Framed messages received.", func(st *Stats) int64 { return st.Received }),
			one("hvves_messages_sent_total", counter, "Messages accepted and routed.", func(st *Stats) int64 { return st.Accepted }),
		},
		labelled: []labelled{
			by("hvves_clients_rejected_cause_total", helpRejectedCause, "cause", func(st *Stats) map[string]int64 { return st.ClientsRejected }),
			by("hvves_messages_dropped_cause_total", helpDroppedCause, "cause", func(st *Stats) map[string]int64 { return st.Dropped }),
			by("hvves_messages_sent_topic_total", helpSentTopic, "topic", func(st *Stats) map[string]int64 { return st.ByTopic }),
		},
		travel: prometheus.NewDesc(metricTravel, helpTravel, nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, s := range c.singles {
		ch <- s.desc
	}
	for _, l := range c.labelled {
		ch <- l.desc
	}
	ch <- c.travel
}

// Collect implements prometheus.Collector from one Stats snapshot.
func (c *statsCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	for _, s := range c.singles {
		ch <- prometheus.MustNewConstMetric(s.desc, s.typ, float64(s.read(&st)))
	}
	for _, l := range c.labelled {
		for k, v := range l.read(&st) {
			ch <- prometheus.MustNewConstMetric(l.desc, prometheus.CounterValue, float64(v), k)
		}
	}
	tr := st.TravelMs
	ch <- prometheus.MustNewConstSummary(c.travel, uint64(max(tr.Count, 0)), tr.Avg*float64(tr.Count)/1000,
		map[float64]float64{0.5: tr.P50 / 1000, 0.99: tr.P99 / 1000})
}

// metricsHandler serves the collector's metrics with the Go runtime and
// process metrics beside them, from a registry of the server's own.
func (s *Server) metricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(newStatsCollector(s.Stats), collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("hv emulator monitoring: listen on %s: %w", addr, err)
	}
	return ln, nil
}
