package hv

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"net"
	"testing"
	"time"
)

// TestDecodesAsTheCollector holds the emulator to what ONAP's HV-VES
// collector does with each stream (its wire decoder, its protobuf
// decoding through generated code, its header validation and metrics):
// counts of received, accepted, dropped by cause, rejected clients and
// recorded travel times.
func TestDecodesAsTheCollector(t *testing.T) {
	valid := headerFields(1, "p")
	// The header split over two occurrences of field 1: protobuf merges
	// embedded messages, so the halves make one complete header.
	split := append(encode([]field{{1, valid[:5]}, {1, valid[5:]}}), encode([]field{{2, []byte("x")}})...)
	badUTF8 := string([]byte{'p', 0xff, 0xfe})
	cases := []struct {
		name     string
		stream   []byte
		accepted int64
		dropped  map[string]int64
		rejected string
		travels  int64
	}{
		{"a valid message is routed", message(1, "p", 500), 1, nil, "", 1},
		{"listener version 7.0 then a newline is rejected by the pattern",
			eventFrame(with(valid, 18, "7.0\nx"), 200), 0, map[string]int64{DropInvalid: 1}, "", 1},
		{"listener version 7.2.1 matches", eventFrame(with(valid, 18, "7.2.1"), 200), 1, nil, "", 1},
		{"eventType sent as a varint is an unknown field: routed",
			eventFrame(with(valid, 7, uint64(5)), 200), 1, nil, "", 1},
		{"an unknown field number is kept aside: routed",
			eventFrame(append(valid, field{99, "extra"}), 200), 1, nil, "", 1},
		{"sourceName not valid UTF-8 fails decoding: dropped, no travel time",
			eventFrame(with(valid, 16, badUTF8), 200), 0, map[string]int64{DropInvalid: 1}, "", 0},
		{"a header in two field-1 occurrences is merged: routed",
			rawFrame(frameMajor, payloadVesEvent, split), 1, nil, "", 1},
		{"a later occurrence overrides a scalar: routed as the last domain",
			eventFrame(append(with(valid, 2, "fault"), field{2, "perf3gpp"}), 200), 1, nil, "", 1},
		{"travel time is recorded for a decoded but invalid message",
			eventFrame(with(valid, 16, nil), 200), 0, map[string]int64{DropInvalid: 1}, "", 1},
		{"travel time is recorded for an unrouted message",
			eventFrame(with(valid, 2, "fault"), 200), 0, map[string]int64{DropRouteNotFound: 1}, "", 1},
		{"no header at all", rawFrame(frameMajor, payloadVesEvent, nil), 0, map[string]int64{DropInvalid: 1}, "", 1},
		{"truncated protobuf", rawFrame(1, 1, []byte{0x0a, 0x05, 1}), 0, map[string]int64{DropInvalid: 1}, "", 0},
		{"major version 2 is dropped", rawFrame(2, payloadVesEvent, message(1, "p", 100)[frameHeaderLen:]),
			0, map[string]int64{DropInvalid: 1}, "", 0},
		{"payload type 7 is dropped", rawFrame(1, 7, message(1, "p", 100)[frameHeaderLen:]),
			0, map[string]int64{DropInvalid: 1}, "", 0},
		{"minor version 9 is accepted", append([]byte{frameMarker, 1, 9}, message(1, "p", 100)[3:]...), 1, nil, "", 1},
		{"five garbage bytes wait for a whole header", []byte{1, 2, 3, 4, 5}, 0, nil, "", 0},
		{"eleven bytes after a message wait too", append(message(1, "p", 100), make([]byte, 11)...), 1, nil, "", 1},
		{"twelve garbage bytes break the stream", append(message(1, "p", 100), make([]byte, 12)...), 1, nil, RejectMarker, 1},
		{"a length over 1 MiB breaks the stream", []byte{frameMarker, 1, 0, 0, 0, 0, 0, 1, 0, 0x10, 0, 1}, 0, nil, RejectTooBig, 0},
		{"a length with the top bit set breaks the stream", []byte{frameMarker, 1, 0, 0, 0, 0, 0, 1, 0x80, 0, 0, 0}, 0, nil, RejectUnexpected, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := time.UnixMicro(epoch).Add(time.Millisecond)
			s, k := newTestConn(Options{Now: func() time.Time { return now }}, 100, now)
			for chunk := range chunks(c.stream, 7) { // frames split across reads
				k.reader.write(chunk)
				if cause := k.frames(); cause != "" {
					if cause != c.rejected {
						t.Fatalf("disconnected for %s, want %q", cause, c.rejected)
					}
					break
				}
			}
			st := s.Stats()
			if st.Accepted != c.accepted || !maps.Equal(st.Dropped, c.dropped) && len(st.Dropped)+len(c.dropped) > 0 {
				t.Errorf("accepted %d dropped %v, want %d %v", st.Accepted, st.Dropped, c.accepted, c.dropped)
			}
			if got := st.ClientsRejected[c.rejected]; c.rejected != "" && got != 1 || c.rejected == "" && st.RejectedTotal() != 0 {
				t.Errorf("clients rejected %v, want %q", st.ClientsRejected, c.rejected)
			}
			if st.TravelMs.Count != c.travels {
				t.Errorf("travel times recorded %d, want %d", st.TravelMs.Count, c.travels)
			}
		})
	}
}

// chunks cuts b into pieces of n bytes.
func chunks(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for off := 0; off < len(b); off += n {
			if !yield(b[off:min(off+n, len(b))]) {
				return
			}
		}
	}
}

// TestGarbageThenCloseRejectsNobody: five bytes that are no frame, then
// the client closes; the collector never saw a whole header, so it counts
// a disconnection and no rejected client.
func TestGarbageThenCloseRejectsNobody(t *testing.T) {
	s := start(t, Options{})
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	st := waitFor(t, s, "the disconnection", func(st Stats) bool { return st.Disconnections == 1 })
	if st.RejectedTotal() != 0 || st.Received != 0 || !maps.Equal(st.DisconnectedBy, map[string]int64{"closed": 1}) {
		t.Errorf("rejected %v, received %d, disconnected %v", st.ClientsRejected, st.Received, st.DisconnectedBy)
	}
}

// TestTravelTimeCap: a message stamped in 1970 travels for decades; the
// figure is held at the cap, and no percentile is reported above it.
func TestTravelTimeCap(t *testing.T) {
	now := time.UnixMicro(epoch)
	s, k := newTestConn(Options{Now: func() time.Time { return now }}, 10, now)
	k.reader.write(bytes.Repeat(eventFrame(with(with(headerFields(1, "p"), 8, uint64(1)), 9, uint64(1)), 100), 3))
	k.reader.write(eventFrame(with(headerFields(2, "p"), 8, uint64(epoch+5_000_000)), 100)) // from the future
	if cause := k.frames(); cause != "" {
		t.Fatal(cause)
	}
	st := s.Stats()
	capMs := float64(maxTravelUs) / 1000
	if st.TravelMs.Count != 3 || st.TravelMs.P50 != capMs || st.TravelMs.P99 != capMs || st.TravelMs.Max != capMs ||
		st.TravelMs.Avg != capMs || st.NegativeTravels != 1 {
		t.Errorf("travel %+v, %d negative; want 3 at the cap %v ms and 1 negative", st.TravelMs, st.NegativeTravels, capMs)
	}
}

// TestBrokenStreamEndsTheConnection checks the client sees the
// disconnection for a marker error detected across reads.
func TestBrokenStreamEndsTheConnection(t *testing.T) {
	s := start(t, Options{})
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("hello"))
	c.Write([]byte(", world!"))
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("client read %v, want EOF", err)
	}
	waitFor(t, s, "the rejection", func(st Stats) bool { return st.ClientsRejected[RejectMarker] == 1 })
}
