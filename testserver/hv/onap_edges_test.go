package hv

import (
	"maps"
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestStreamErrorsAsTheCollector covers the errors that end a client's
// stream in ONAP's HV-VES collector without being wire-frame errors, which
// its metrics count as clients rejected for RejectUnexpected:
//
//   - WireFrameDecoder reads the length as a signed int: one with the top
//     bit set passes the size check and the wait for bytes, then
//     allocating a payload of that size fails;
//   - the travel time to the collector is recorded through a timer that
//     converts the duration to nanoseconds, which overflows when the
//     stamp (lastEpochMicrosec, read as a signed long) lies more than
//     about 292 years from the receipt; the error ends the stream after
//     the frame was counted as received, before validation.
//
// Frames before the error are handled; the ones after it are not.
func TestStreamErrorsAsTheCollector(t *testing.T) {
	valid := headerFields(1, "p")
	years := func(y float64) uint64 { return uint64(float64(epoch) + y*365.25*24*3600*1e6) }
	cases := []struct {
		name     string
		stream   []byte
		received int64
		accepted int64
		dropped  map[string]int64
		rejected string
		travels  int64
	}{
		{"a length with the top bit set", append(message(1, "p", 100), 0xAA, 1, 0, 0, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF),
			1, 1, nil, RejectUnexpected, 1},
		{"the largest length that is not negative is too big", []byte{frameMarker, 1, 0, 0, 0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xFF},
			0, 0, nil, RejectTooBig, 0},
		{"stamped at the largest uint64 (-1 µs as a long): recorded", eventFrame(with(valid, 8, uint64(math.MaxUint64)), 100),
			1, 1, nil, "", 1},
		{"stamped at 2^63 (the earliest long)", append(eventFrame(with(valid, 8, uint64(1)<<63), 100), message(2, "p", 100)...),
			1, 0, nil, RejectUnexpected, 0},
		{"stamped 300 years ahead", eventFrame(with(valid, 8, years(300)), 100), 1, 0, nil, RejectUnexpected, 0},
		{"stamped 290 years ahead: a negative time, not recorded", eventFrame(with(valid, 8, years(290)), 100), 1, 1, nil, "", 0},
		{"stamped in 1970: recorded", eventFrame(with(valid, 8, uint64(1)), 100), 1, 1, nil, "", 1},
		{"an invalid header stamped 300 years ahead still ends the stream",
			eventFrame(with(with(valid, 16, nil), 8, years(300)), 100), 1, 0, nil, RejectUnexpected, 0},
		{"an unroutable domain stamped 300 years ahead too",
			eventFrame(with(with(valid, 2, "fault"), 8, years(300)), 100), 1, 0, nil, RejectUnexpected, 0},
		{"a frame that is not decoded is dropped whatever its stamp",
			rawFrame(2, payloadVesEvent, encode([]field{{1, with(valid, 8, years(300))}})), 1, 0, map[string]int64{DropInvalid: 1}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := time.UnixMicro(epoch).Add(time.Millisecond)
			s, k := newTestConn(Options{Now: func() time.Time { return now }}, 100, now)
			k.reader.write(c.stream)
			if cause := k.frames(); cause != c.rejected {
				t.Fatalf("disconnected for %q, want %q", cause, c.rejected)
			}
			st := s.Stats()
			if st.Received != c.received || st.Accepted != c.accepted || !maps.Equal(st.Dropped, c.dropped) && len(st.Dropped)+len(c.dropped) > 0 {
				t.Errorf("received %d accepted %d dropped %v, want %d %d %v", st.Received, st.Accepted, st.Dropped,
					c.received, c.accepted, c.dropped)
			}
			if want := map[string]int64{c.rejected: 1}; c.rejected != "" && !maps.Equal(st.ClientsRejected, want) ||
				c.rejected == "" && st.RejectedTotal() != 0 {
				t.Errorf("clients rejected %v, want %q", st.ClientsRejected, c.rejected)
			}
			if st.TravelMs.Count != c.travels {
				t.Errorf("travel times recorded %d, want %d", st.TravelMs.Count, c.travels)
			}
		})
	}
}

// nestedGroups is an unknown field 50 holding k groups, each inside the
// one before.
func nestedGroups(k int) []byte {
	var b []byte
	for range k {
		b = protowire.AppendTag(b, 50, protowire.StartGroupType)
	}
	for range k {
		b = protowire.AppendTag(b, 50, protowire.EndGroupType)
	}
	return b
}

// TestNestingAsProtobufJava: the collector's generated code keeps an
// unknown group with protobuf-java's CodedInputStream, whose recursion
// limit is 100 levels: VesEvent is read at level 0 and its header at
// level 1, and opening a group at level 100 fails the whole message.
func TestNestingAsProtobufJava(t *testing.T) {
	header := encode(headerFields(1, "p"))
	frameOf := func(event []byte) []byte { return rawFrame(frameMajor, payloadVesEvent, event) }
	inEvent := func(k int) []byte {
		return frameOf(append(encode([]field{{1, header}}), nestedGroups(k)...))
	}
	inHeader := func(k int) []byte {
		return frameOf(encode([]field{{1, append(append([]byte{}, header...), nestedGroups(k)...)}}))
	}
	for _, c := range []struct {
		name   string
		stream []byte
		routed bool
	}{
		{"100 groups in the event", inEvent(100), true},
		{"101 groups in the event", inEvent(101), false},
		{"99 groups in the header", inHeader(99), true},
		{"100 groups in the header", inHeader(100), false},
		{"an end group without its start", frameOf(append(encode([]field{{1, header}}), protowire.AppendTag(nil, 50, protowire.EndGroupType)...)), false},
		{"a group closed by another number", frameOf(append(encode([]field{{1, header}}),
			append(protowire.AppendTag(nil, 50, protowire.StartGroupType), protowire.AppendTag(nil, 51, protowire.EndGroupType)...)...)), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := time.UnixMicro(epoch)
			s, k := newTestConn(Options{Now: func() time.Time { return now }}, 10, now)
			k.reader.write(c.stream)
			if cause := k.frames(); cause != "" {
				t.Fatalf("disconnected: %s", cause)
			}
			st := s.Stats()
			if routed := st.Accepted == 1; routed != c.routed || !routed && st.Dropped[DropInvalid] != 1 {
				t.Errorf("accepted %d, dropped %v; want routed %v", st.Accepted, st.Dropped, c.routed)
			}
		})
	}
}
