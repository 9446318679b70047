package hv

import (
	"encoding/json"
	"maps"
	"net/http"
	"time"
)

// Stats is a snapshot of what the emulator received. Its JSON form is the
// /stats document.
type Stats struct {
	UptimeS           float64 `json:"uptime_s"`
	ConnectionsTotal  int64   `json:"connections_total"`
	ConnectionsActive int64   `json:"connections_active"`
	Disconnections    int64   `json:"disconnections_total"`
	// DisconnectedBy counts disconnections by cause: closed (by the
	// client), idle, invalid_marker, too_big_payload, unexpected,
	// tls_handshake.
	DisconnectedBy  map[string]int64 `json:"disconnected_by"`
	ClientsRejected map[string]int64 `json:"clients_rejected"`
	BytesReceived   int64            `json:"data_received_bytes"`
	PayloadBytes    int64            `json:"payload_bytes"`
	// Received counts every framed message; Accepted those valid and
	// routed (the collector's "sent"); Dropped the rest by cause.
	Received int64            `json:"messages_received"`
	Accepted int64            `json:"messages_accepted"`
	Dropped  map[string]int64 `json:"messages_dropped"`
	ByTopic  map[string]int64 `json:"by_topic"`
	// BySource counts accepted messages per sourceName (per producer),
	// ByClient per connection (remote address); each table keeps 1000
	// keys and counts the rest under "(other)".
	BySource map[string]int64 `json:"by_source"`
	ByClient map[string]int64 `json:"by_client"`
	// DuplicateEventIDs counts accepted messages whose eventId was seen
	// before; UntrackedEventIDs those not checked because the set is full.
	DuplicateEventIDs int64 `json:"duplicate_event_ids"`
	UntrackedEventIDs int64 `json:"untracked_event_ids,omitempty"`
	// TravelMs is lastEpochMicrosec → receipt, in milliseconds.
	TravelMs        Travel `json:"travel_time_ms"`
	NegativeTravels int64  `json:"negative_travel_times,omitempty"`
}

// Travel summarises travel times in milliseconds.
type Travel struct {
	Count int64   `json:"count"`
	Avg   float64 `json:"avg"`
	P50   float64 `json:"p50"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// Stats returns a consistent snapshot of the counters.
func (s *Server) Stats() Stats {
	st := s.st
	out := Stats{
		UptimeS:           s.opts.Now().Sub(s.started).Seconds(),
		ConnectionsTotal:  st.connections.Load(),
		ConnectionsActive: st.active.Load(),
		Disconnections:    st.disconnections.Load(),
		BytesReceived:     st.bytesIn.Load(),
		PayloadBytes:      st.payloadBytes.Load(),
		Received:          st.nReceived.Load(),
		Accepted:          st.nSent.Load(),
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	out.DisconnectedBy, out.ClientsRejected = maps.Clone(st.discBy), maps.Clone(st.rejections)
	out.Dropped, out.ByTopic, out.BySource = maps.Clone(st.drops), maps.Clone(st.byTopic), maps.Clone(st.bySource)
	out.ByClient = maps.Clone(st.byClient)
	out.DuplicateEventIDs, out.UntrackedEventIDs, out.NegativeTravels = st.duplicates, st.untracked, st.negative
	if n := st.travel.TotalCount(); n > 0 {
		// A histogram bucket's highest value may lie past the cap: a
		// figure is never reported above it.
		ms := func(us int64) float64 { return float64(min(us, maxTravelUs)) / 1000 }
		out.TravelMs = Travel{Count: n, Avg: st.travelSumUs / float64(n) / 1000,
			P50: ms(st.travel.ValueAtQuantile(50)), P99: ms(st.travel.ValueAtQuantile(99)), Max: ms(st.travel.Max())}
	}
	return out
}

// DroppedTotal is the number of framed messages not accepted.
func (st Stats) DroppedTotal() int64 { return total(st.Dropped) }

// RejectedTotal is the number of clients disconnected for a protocol
// violation, whatever the cause.
func (st Stats) RejectedTotal() int64 { return total(st.ClientsRejected) }

// total adds the counts of every cause.
func total(byCause map[string]int64) int64 {
	var n int64
	for _, v := range byCause {
		n += v
	}
	return n
}

// Handler serves /stats (JSON), /metrics and /monitoring/prometheus (the
// collector's metric names) and /health/ready.
func (s *Server) Handler() http.Handler {
	metrics := s.metricsHandler()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s.Stats()) // a failed write means the client left
	})
	mux.Handle("GET /metrics", metrics)
	mux.Handle("GET /monitoring/prometheus", metrics)
	mux.HandleFunc("GET /health/ready", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	return mux
}

// ServeHTTP starts the monitoring endpoints on addr; Close of the
// returned server stops them.
func (s *Server) ServeHTTP(addr string) (*http.Server, string, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }() // returns ErrServerClosed on Close
	return srv, ln.Addr().String(), nil
}
