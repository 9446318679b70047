package hv

import (
	"encoding/binary"
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// The tests build their messages field by field with protowire, apart
// from both the producers' encoder and the emulator's decoder, so that
// odd but legal encodings (repeated headers, wrong wire types) can be
// written.

const epoch = 1_764_590_000_000_000 // µs

// field is one field as written on the wire: v is a string or []byte
// (length-delimited), a uint64 (varint) or a []field (an embedded
// message).
type field struct {
	num protowire.Number
	v   any
}

func encode(fs []field) []byte {
	var b []byte
	for _, f := range fs {
		switch v := f.v.(type) {
		case string:
			b = protowire.AppendBytes(protowire.AppendTag(b, f.num, protowire.BytesType), []byte(v))
		case []byte:
			b = protowire.AppendBytes(protowire.AppendTag(b, f.num, protowire.BytesType), v)
		case uint64:
			b = protowire.AppendVarint(protowire.AppendTag(b, f.num, protowire.VarintType), v)
		case []field:
			b = protowire.AppendBytes(protowire.AppendTag(b, f.num, protowire.BytesType), encode(v))
		default:
			panic(fmt.Sprintf("field %d: %T", f.num, f.v))
		}
	}
	return b
}

// headerFields is a complete, valid perf3gpp header.
func headerFields(seq uint64, source string) []field {
	return []field{
		{1, "1.0"}, {2, "perf3gpp"}, {3, seq}, {4, uint64(3)}, {5, fmt.Sprint("r-", seq)}, {6, "perf3gpp_test"},
		{8, uint64(epoch)}, {9, uint64(epoch)}, {14, "re"}, {16, source}, {18, "7.2"},
	}
}

// with returns fs with field num set to v (appended when absent; removed
// when v is nil).
func with(fs []field, num protowire.Number, v any) []field {
	out := make([]field, 0, len(fs)+1)
	done := false
	for _, f := range fs {
		if f.num != num {
			out = append(out, f)
			continue
		}
		if v != nil && !done {
			out = append(out, field{num, v})
		}
		done = true
	}
	if !done && v != nil {
		out = append(out, field{num, v})
	}
	return out
}

// rawFrame frames payload with the given major version and payload type.
func rawFrame(major byte, payloadType uint16, payload []byte) []byte {
	b := []byte{frameMarker, major, 0, 0, 0, 0}
	b = binary.BigEndian.AppendUint16(b, payloadType)
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

// eventFrame frames a VesEvent with header h and eventFields padded so
// that the frame's payload is size bytes (or as small as it can be).
func eventFrame(h []field, size int) []byte {
	hdr := encode([]field{{1, h}})
	pad := max(size-len(hdr)-1, 0)
	for pad > 0 && len(hdr)+1+protowire.SizeVarint(uint64(pad))+pad > size {
		pad--
	}
	return rawFrame(frameMajor, payloadVesEvent, append(hdr, encode([]field{{2, make([]byte, pad)}})...))
}

// message is a valid perf3gpp message of about size bytes.
func message(seq uint64, source string, size int) []byte {
	return eventFrame(headerFields(seq, source), size)
}

// newTestConn is an emulator's connection without a socket, fed by hand
// (k.reader.write, then k.frames): the emulator runs with o normalised,
// tracks up to maxIDs event ids and started at started.
func newTestConn(o Options, maxIDs int, started time.Time) (*Server, *conn) {
	o, _ = o.normalise()
	s := &Server{opts: o, st: newState(maxIDs), started: started}
	return s, &conn{s: s, reader: frameReader{max: o.MaxPayload}}
}
