package delivery

import (
	"bytes"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of HV-VES's VesEvent protobuf: VesEvent.commonEventHeader
// = 1, CommonEventHeader.eventId = 5.
const (
	fieldHeader  = 1
	fieldEventID = 5
)

var eventIDKey = []byte(`"eventId"`)

// EventID returns the eventId of a record value: a JSON event as the REST
// collector publishes it (found wherever it sits, since the collector may
// transform the event), or a protobuf VesEvent as HV-VES routes it. It
// returns nil when there is none. It does not allocate: the result
// aliases value.
func EventID(value []byte) []byte {
	if v := bytes.TrimLeft(value, " \t\r\n"); len(v) > 0 && (v[0] == '{' || v[0] == '[') {
		return jsonEventID(v)
	}
	return protoEventID(value)
}

// jsonEventID finds the first "eventId" key and returns its string value
// (raw: an id with escapes is not one of vesload's).
func jsonEventID(v []byte) []byte {
	for {
		i := bytes.Index(v, eventIDKey)
		if i < 0 {
			return nil
		}
		v = v[i+len(eventIDKey):]
		rest := bytes.TrimLeft(v, " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue // the text "eventId" inside a value
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' {
			return nil
		}
		end := bytes.IndexByte(rest[1:], '"')
		if end < 0 {
			return nil
		}
		return rest[1 : 1+end]
	}
}

// protoEventID reads VesEvent.commonEventHeader.eventId with protowire.
func protoEventID(v []byte) []byte {
	hdr := protoField(v, fieldHeader)
	if hdr == nil {
		return nil
	}
	return protoField(hdr, fieldEventID)
}

// protoField returns the bytes of the first length-delimited field num of
// message m, or nil when it is absent or m is not valid protobuf.
func protoField(m []byte, num protowire.Number) []byte {
	for len(m) > 0 {
		n, typ, l := protowire.ConsumeTag(m)
		if l < 0 {
			return nil
		}
		m = m[l:]
		if n == num && typ == protowire.BytesType {
			b, l := protowire.ConsumeBytes(m)
			if l < 0 {
				return nil
			}
			return b
		}
		l = protowire.ConsumeFieldValue(n, typ, m)
		if l < 0 {
			return nil
		}
		m = m[l:]
	}
	return nil
}

// parseSeq returns n of an eventId "<runID>-<n>" of this run. The run id
// is everything before the last '-'; n is decimal without sign or
// leading zeros, so that each event has exactly one id.
func parseSeq(id, runID []byte) (uint64, bool) {
	dash := bytes.LastIndexByte(id, '-')
	if dash < 0 || !bytes.Equal(id[:dash], runID) {
		return 0, false
	}
	digits := id[dash+1:]
	if len(digits) == 0 || len(digits) > 19 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}
