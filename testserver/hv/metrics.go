package hv

import (
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"

	"github.com/vesload/vesload/internal/promtext"
	"github.com/vesload/vesload/internal/selfmetrics"
)

// Help texts of the series, under the names the real collector uses, so
// that dashboards and --target-metrics work against either.
const (
	helpRejectedCause = "Clients disconnected for a protocol violation, by cause."
	helpDroppedCause  = "Messages skipped, by cause."
	helpSentTopic     = "Messages accepted and routed, by topic."
	helpTravel        = "Time from lastEpochMicrosec to receipt."
)

// writeMetrics renders the collector's counters from one Stats snapshot.
func writeMetrics(st Stats, w *promtext.Writer) {
	one := func(name string, t promtext.Type, help string, v int64) { w.Single(name, t, help, float64(v)) }
	byLabel(w, "hvves_clients_rejected_cause_total", helpRejectedCause, "cause", st.ClientsRejected)
	one("hvves_clients_rejected_total", promtext.Counter, "Clients disconnected for a protocol violation.", st.RejectedTotal())
	one("hvves_connections_active", promtext.Gauge, "Connections open now.", st.ConnectionsActive)
	one("hvves_connections_total", promtext.Counter, "Connections accepted since start.", st.ConnectionsTotal)
	one("hvves_data_received_bytes_total", promtext.Counter, "Bytes read from clients.", st.BytesReceived)
	one("hvves_disconnections_total", promtext.Counter, "Connections ended.", st.Disconnections)
	one("hvves_emulator_duplicate_event_ids_total", promtext.Counter, "Accepted messages whose eventId was seen before.", st.DuplicateEventIDs)
	byLabel(w, "hvves_messages_dropped_cause_total", helpDroppedCause, "cause", st.Dropped)
	one("hvves_messages_dropped_total", promtext.Counter, "Messages skipped.", st.DroppedTotal())
	one("hvves_messages_received_payload_bytes_total", promtext.Counter, "Payload bytes of framed messages.", st.PayloadBytes)
	one("hvves_messages_received_total", promtext.Counter, "Framed messages received.", st.Received)
	byLabel(w, "hvves_messages_sent_topic_total", helpSentTopic, "topic", st.ByTopic)
	one("hvves_messages_sent_total", promtext.Counter, "Messages accepted and routed.", st.Accepted)
	const travel = "hvves_messages_to_collector_travel_time_seconds"
	w.Header(travel, promtext.Summary, helpTravel)
	w.Summary(travel, nil, []promtext.Quantile{{Q: 0.5, Value: st.TravelMs.P50 / 1000}, {Q: 0.99, Value: st.TravelMs.P99 / 1000}},
		st.TravelMs.Avg*float64(st.TravelMs.Count)/1000, uint64(max(st.TravelMs.Count, 0)))
	selfmetrics.Write(w)
}

// byLabel writes a counter family with one series per map entry, sorted
// by label value, or nothing when the map is empty.
func byLabel(w *promtext.Writer, name, help, label string, m map[string]int64) {
	if len(m) == 0 {
		return
	}
	w.Header(name, promtext.Counter, help)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		w.Sample(name, []promtext.Label{{Name: label, Value: k}}, float64(m[k]))
	}
}

// metricsHandler serves the collector's metrics with the Go runtime and
// process metrics beside them.
func (s *Server) metricsHandler() http.Handler {
	return promtext.Handler(func(w *promtext.Writer) { writeMetrics(s.Stats(), w) })
}

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("hv emulator monitoring: listen on %s: %w", addr, err)
	}
	return ln, nil
}
