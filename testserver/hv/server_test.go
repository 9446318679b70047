package hv

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/waitfor"
)

// waitFor polls the stats until cond holds (the emulator reads on its own
// goroutines); it fails after two seconds.
func waitFor(t *testing.T, s *Server, what string, cond func(Stats) bool) Stats {
	t.Helper()
	var st Stats
	if !waitfor.True(2*time.Second, 2*time.Millisecond, func() bool { st = s.Stats(); return cond(st) }) {
		t.Fatalf("timed out waiting for %s; stats %+v", what, st)
	}
	return st
}

func start(t *testing.T, o Options) *Server {
	t.Helper()
	s, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestCountsAndSkips(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	now := time.UnixMicro(epoch).Add(1500 * time.Microsecond)
	s := start(t, Options{
		Now: func() time.Time { return now },
		OnMessage: func(m *Message) {
			mu.Lock()
			seen = append(seen, m.Domain+"/"+m.Topic+"/"+m.EventID)
			mu.Unlock()
		},
	})
	fault := with(headerFields(6, "p0"), 2, "fault")
	stream := bytes.Join([][]byte{
		message(1, "p0", 8192),
		message(2, "p1", 500),
		message(1, "p0", 600), // duplicate eventId r-1
		rawFrame(2, payloadVesEvent, message(3, "p0", 400)[frameHeaderLen:]), // major version 2
		rawFrame(1, 7, message(4, "p0", 400)[frameHeaderLen:]),               // unknown payload type
		rawFrame(1, 1, []byte{0x0a, 0x05, 1}),                                // undecodable protobuf
		eventFrame(with(headerFields(5, "p0"), 16, nil), 400),                // header without sourceName
		eventFrame(fault, 400),                                               // domain without a route
		message(7, "p1", 300),
	}, nil)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(stream); off += 777 { // frames split across writes
		if _, err := c.Write(stream[off:min(off+777, len(stream))]); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	st := waitFor(t, s, "the disconnection", func(st Stats) bool { return st.Disconnections == 1 })
	if st.Received != 9 || st.Accepted != 4 || st.DuplicateEventIDs != 1 || st.BytesReceived != int64(len(stream)) {
		t.Errorf("received %d accepted %d duplicates %d bytes %d; want 9, 4, 1, %d", st.Received, st.Accepted,
			st.DuplicateEventIDs, st.BytesReceived, len(stream))
	}
	wantDrops := map[string]int64{DropInvalid: 4, DropRouteNotFound: 1}
	if !maps.Equal(st.Dropped, wantDrops) || !maps.Equal(st.BySource, map[string]int64{"p0": 2, "p1": 2}) ||
		!maps.Equal(st.DisconnectedBy, map[string]int64{"closed": 1}) || !maps.Equal(st.ByTopic, map[string]int64{"HV_VES_PERF3GPP": 4}) {
		t.Errorf("dropped %v by source %v disconnected %v by topic %v", st.Dropped, st.BySource, st.DisconnectedBy, st.ByTopic)
	}
	if len(st.ByClient) != 1 || st.ByClient[c.LocalAddr().String()] != 4 {
		t.Errorf("by client %v, want 4 from %s", st.ByClient, c.LocalAddr())
	}
	if st.TravelMs.Count != 6 || st.TravelMs.P50 != 1.5 || st.TravelMs.Max != 1.5 {
		t.Errorf("travel %+v, want 6 × 1.5 ms (every decoded message)", st.TravelMs)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen, " "); got != "perf3gpp/HV_VES_PERF3GPP/r-1 perf3gpp/HV_VES_PERF3GPP/r-2 perf3gpp/HV_VES_PERF3GPP/r-1 perf3gpp/HV_VES_PERF3GPP/r-7" {
		t.Errorf("OnMessage saw %s", got)
	}
}

func TestDisconnects(t *testing.T) {
	tooBig := []byte{frameMarker, 1, 0, 0, 0, 0, 0, 1, 0, 0x10, 0, 1}
	for _, c := range []struct {
		name   string
		stream []byte
		cause  string
		frames int64
	}{
		{"bad marker", append(message(1, "p0", 300), 0x55, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0), RejectMarker, 1},
		{"payload over 1 MiB", tooBig, RejectTooBig, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := start(t, Options{})
			conn, err := net.Dial("tcp", s.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write(c.stream); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(2 * time.Second))
			if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
				t.Errorf("client read %v, want EOF (disconnected)", err)
			}
			st := waitFor(t, s, "the rejection", func(st Stats) bool { return st.ClientsRejected[c.cause] == 1 })
			if st.Received != c.frames || st.DisconnectedBy[c.cause] != 1 {
				t.Errorf("received %d, disconnected %v", st.Received, st.DisconnectedBy)
			}
		})
	}
}

func TestIdleTimeout(t *testing.T) {
	s := start(t, Options{IdleTimeout: 50 * time.Millisecond})
	conn, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("idle client read %v, want EOF", err)
	}
	waitFor(t, s, "the idle disconnection", func(st Stats) bool { return st.DisconnectedBy["idle"] == 1 })
}

func TestTLSNeedsAClientCertificate(t *testing.T) {
	cert, key, pool := testcert.Write(t)
	s := start(t, Options{TLSCertFile: cert, TLSKeyFile: key, ClientCAFile: cert})
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	// without a certificate: the handshake fails and the client is counted
	bare, err := tls.Dial("tcp", s.Addr(), &tls.Config{RootCAs: pool})
	if err == nil {
		_, err = bare.Read(make([]byte, 1)) // TLS 1.3 reports the refusal on the first read
		bare.Close()
	}
	if err == nil {
		t.Fatal("a client without a certificate was served")
	}
	waitFor(t, s, "the rejected handshake", func(st Stats) bool { return st.ClientsRejected[RejectHandshake] == 1 })

	c, err := tls.Dial("tcp", s.Addr(), &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(message(1, "p", 8192)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	waitFor(t, s, "the message over TLS", func(st Stats) bool { return st.Accepted == 1 })
}

func TestReadRateSlowsTheClient(t *testing.T) {
	s := start(t, Options{ReadRate: 200_000})
	conn, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	f := message(1, "p", 20_000-frameHeaderLen)
	begin := time.Now()
	for range 4 { // 80 kB at 200 kB/s: ≥ 0.4 s to read, minus what the socket buffers hold
		if _, err := conn.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, s, "the messages", func(st Stats) bool { return st.Accepted == 4 })
	if d := time.Since(begin); d < 300*time.Millisecond {
		t.Errorf("80 kB read in %v at 200 kB/s", d)
	}
}

// TestProcessRatePacesMessages holds that a process rate bounds the
// messages handled over all connections: 300 messages written at once
// to two connections take at least the time the rate allows (a loaded
// machine only takes longer), and none is lost while waiting.
func TestProcessRatePacesMessages(t *testing.T) {
	s := start(t, Options{ProcessRate: 1000})
	var conns [2]net.Conn
	for i := range conns {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	begin := time.Now()
	for i := range 300 {
		if _, err := conns[i%2].Write(message(uint64(i), "p", 100)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, s, "the messages", func(st Stats) bool { return st.Accepted == 300 })
	// 300 at 1,000/s after a burst of 10: at least 0.29 s.
	if d := time.Since(begin); d < 280*time.Millisecond {
		t.Errorf("300 messages handled in %v at 1,000/s", d)
	}
}

func TestMonitoringEndpoints(t *testing.T) {
	s := start(t, Options{})
	srv, addr, err := s.ServeHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	conn, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	conn.Write(append(message(1, "p", 1000), message(2, "p", 1000)...))
	conn.Close()
	waitFor(t, s, "two messages", func(st Stats) bool { return st.Accepted == 2 })
	body := get(t, "http://"+addr+"/metrics")
	for _, line := range []string{"hvves_messages_received_total 2", "hvves_messages_sent_total 2",
		`hvves_messages_sent_topic_total{topic="HV_VES_PERF3GPP"} 2`, "hvves_connections_total 1",
		"hvves_messages_received_payload_bytes_total 2000", "hvves_messages_to_collector_travel_time_seconds_count 2"} {
		if !strings.Contains(body, line+"\n") {
			t.Errorf("/metrics lacks %q:\n%s", line, body)
		}
	}
	var st Stats
	if err := json.Unmarshal([]byte(get(t, "http://"+addr+"/stats")), &st); err != nil || st.Accepted != 2 {
		t.Errorf("/stats: %v, accepted %d", err, st.Accepted)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

func TestTablesAreBounded(t *testing.T) {
	m := map[string]int64{}
	for i := range maxSources + 5 {
		bounded(m, fmt.Sprint("client-", i))
	}
	bounded(m, "client-0")
	if len(m) != maxSources+1 || m[otherSources] != 5 || m["client-0"] != 2 {
		t.Errorf("%d keys, other %d, client-0 %d", len(m), m[otherSources], m["client-0"])
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{TLSCertFile: "x.pem"},
		{ClientCAFile: "ca.pem"},
		{ReadRate: -1},
		{ProcessRate: -1},
		{MaxPayload: MaxPayload + 1},
		{Addr: "256.0.0.1:1"},
	} {
		if s, err := Start(o); err == nil {
			s.Close()
			t.Errorf("%+v: started", o)
		}
	}
}

// FuzzFrames feeds arbitrary streams through a connection's frame
// handling: it must never panic, and every framed message is accepted or
// dropped.
func FuzzFrames(f *testing.F) {
	f.Add(message(1, "p", 300))
	f.Add(rawFrame(1, 1, []byte{0x0a, 0x02, 0x08, 0x00}))
	f.Add([]byte{frameMarker, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0x0a, 0x01, 0x12})
	f.Add(eventFrame(with(headerFields(1, "p"), 7, uint64(5)), 100))
	f.Fuzz(func(t *testing.T, stream []byte) {
		s, k := newTestConn(Options{MaxPayload: 4096}, 100, time.Time{})
		k.reader.write(stream)
		cause := k.frames()
		st := s.Stats()
		if cause == "" && st.Received != st.Accepted+st.DroppedTotal() {
			t.Fatalf("received %d != accepted %d + dropped %d", st.Received, st.Accepted, st.DroppedTotal())
		}
		if st.TravelMs.Max > float64(maxTravelUs)/1000 {
			t.Fatalf("travel max %v above the cap", st.TravelMs.Max)
		}
	})
}

func TestValidHeader(t *testing.T) {
	ok := func() *header {
		return &header{version: "1.0", domain: "perf3gpp", priority: 3, eventID: "r-1", eventName: "n",
			lastEpochMicrosec: 1, startEpochMicrosec: 1, reportingEntityName: "re", sourceName: "s", listenerVersion: "7.2"}
	}
	type h = header
	for _, c := range []struct {
		name   string
		change func(*h)
		valid  bool
	}{
		{"complete", func(*h) {}, true},
		{"7.2.1", func(h *h) { h.listenerVersion = "7.2.1" }, true},
		{"7.1-anything", func(h *h) { h.listenerVersion = "7.1-x" }, true},
		{"7.0 then a tab", func(h *h) { h.listenerVersion = "7.0\tx" }, true},
		{"7.0 newline x", func(h *h) { h.listenerVersion = "7.0\nx" }, false},
		{"7.0 carriage return", func(h *h) { h.listenerVersion = "7.0\r" }, false},
		{"7.0 next line U+0085", func(h *h) { h.listenerVersion = "7.0\u0085" }, false},
		{"7.0 line separator U+2028", func(h *h) { h.listenerVersion = "7.0\u2028" }, false},
		{"7.0 paragraph separator U+2029", func(h *h) { h.listenerVersion = "7.0\u2029" }, false},
		{"7.", func(h *h) { h.listenerVersion = "7." }, false},
		{"7.x", func(h *h) { h.listenerVersion = "7.x" }, false},
		{"6.0", func(h *h) { h.listenerVersion = "6.0" }, false},
		{"no listener version", func(h *h) { h.listenerVersion = "" }, false},
		{"no priority", func(h *h) { h.priority = 0 }, false},
		{"an unknown priority is set", func(h *h) { h.priority = 9 }, true},
		{"no lastEpochMicrosec", func(h *h) { h.lastEpochMicrosec = 0 }, false},
		{"no startEpochMicrosec", func(h *h) { h.startEpochMicrosec = 0 }, false},
		{"no version", func(h *h) { h.version = "" }, false},
		{"no domain", func(h *h) { h.domain = "" }, false},
		{"no eventId", func(h *h) { h.eventID = "" }, false},
		{"no eventName", func(h *h) { h.eventName = "" }, false},
		{"no reportingEntityName", func(h *h) { h.reportingEntityName = "" }, false},
		{"no sourceName", func(h *h) { h.sourceName = "" }, false},
	} {
		hd := ok()
		c.change(hd)
		if got := validHeader(hd); got != c.valid {
			t.Errorf("%s: valid %v, want %v", c.name, got, c.valid)
		}
	}
}

// stndDefinedFrame is a minimal valid VesEvent of domain stndDefined with
// the given namespace (the producers send perf3gpp).
func stndDefinedFrame(namespace string) []byte {
	h := with(with(headerFields(1, "s"), 2, "stndDefined"), 19, namespace)
	return eventFrame(with(h, 5, "ns-"+namespace), 0)
}

func TestStndDefinedRoutesByNamespace(t *testing.T) {
	now := time.UnixMicro(epoch)
	s := start(t, Options{Now: func() time.Time { return now }})
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	c.Write(append(stndDefinedFrame("ves-3gpp-heartbeat"), stndDefinedFrame("unknown-namespace")...))
	c.Close()
	// Received counts a message before it is routed or dropped: wait for both outcomes.
	st := waitFor(t, s, "both messages", func(st Stats) bool { return st.Accepted+st.DroppedTotal() == 2 })
	if st.Accepted != 1 || st.ByTopic["SEC_3GPP_HEARTBEAT_OUTPUT"] != 1 || st.Dropped[DropRouteNotFound] != 1 {
		t.Errorf("accepted %d, by topic %v, dropped %v", st.Accepted, st.ByTopic, st.Dropped)
	}
}
