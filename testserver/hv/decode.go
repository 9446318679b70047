package hv

import (
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// header is what the emulator keeps of a VesEvent's commonEventHeader:
// the fields the collector validates and routes on.
type header struct {
	version, domain, eventID, eventName   string
	reportingEntityName, sourceName       string
	listenerVersion, stndDefinedNamespace string
	priority                              uint64 // enum Priority; 0 is PRIORITY_NOT_PROVIDED
	lastEpochMicrosec, startEpochMicrosec uint64
}

// Field numbers of the VesEvent schema (ONAP's VesEvent.proto, VES 7.x,
// GPB common event header 1.0).
const (
	fieldHeader      = 1 // VesEvent.commonEventHeader, a message
	fieldEventFields = 2 // VesEvent.eventFields, bytes
)

// stringFields are the header's string fields (proto3: UTF-8 checked);
// bytesFields its bytes ones; the rest are varints.
var (
	stringFields = map[protowire.Number]bool{1: true, 2: true, 5: true, 6: true, 7: true, 10: true, 11: true,
		12: true, 14: true, 16: true, 17: true, 18: true, 19: true}
	bytesFields  = map[protowire.Number]bool{13: true, 15: true}
	varintFields = map[protowire.Number]bool{3: true, 4: true, 8: true, 9: true}
)

// decodeEvent decodes a VesEvent payload into h with protobuf's own rules,
// as the collector's generated code does: a field whose number is unknown,
// or whose wire type is not the declared one, is set aside (skipped); an
// embedded header that occurs more than once is merged (later scalar
// values win); a string field that is not valid UTF-8, or a malformed
// field anywhere, fails the whole message. It reports whether the payload
// decoded; a payload without a header decodes to an empty one. It is
// written apart from the producers' encoder, so that a codec bug on one
// side shows up against the other.
func decodeEvent(b []byte, h *header) bool {
	*h = header{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if (num == fieldHeader || num == fieldEventFields) && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 || num == fieldHeader && !decodeHeader(v, h) {
				return false
			}
			b = b[n:]
			continue
		}
		if n = skipField(num, typ, b, 0); n < 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// javaRecursionLimit is protobuf-java's default nesting limit: a message
// or group opened at this depth fails the parse.
const javaRecursionLimit = 100

// skipField consumes one field value the way protobuf-java keeps an
// unknown field, returning its length or -1: a group opens one more level
// of nesting, and one opened at javaRecursionLimit fails. depth is the
// nesting of the message holding the field (VesEvent 0, its header 1).
func skipField(num protowire.Number, typ protowire.Type, b []byte, depth int) int {
	if typ != protowire.StartGroupType {
		return protowire.ConsumeFieldValue(num, typ, b)
	}
	if depth >= javaRecursionLimit {
		return -1
	}
	n := 0
	for {
		inner, t, m := protowire.ConsumeTag(b[n:])
		if m < 0 {
			return -1
		}
		n += m
		if t == protowire.EndGroupType {
			if inner != num {
				return -1
			}
			return n
		}
		if m = skipField(inner, t, b[n:], depth+1); m < 0 {
			return -1
		}
		n += m
	}
}

// decodeHeader merges one occurrence of the header message into h.
func decodeHeader(b []byte, h *header) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case (stringFields[num] || bytesFields[num]) && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 || stringFields[num] && !utf8.Valid(v) {
				return false
			}
			h.setString(num, v)
			b = b[n:]
		case varintFields[num] && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return false
			}
			h.setVarint(num, v)
			b = b[n:]
		default: // unknown, or known with another wire type: kept aside
			if n = skipField(num, typ, b, 1); n < 0 {
				return false
			}
			b = b[n:]
		}
	}
	return true
}

func (h *header) setString(num protowire.Number, v []byte) {
	switch num {
	case 1:
		h.version = string(v)
	case 2:
		h.domain = string(v)
	case 5:
		h.eventID = string(v)
	case 6:
		h.eventName = string(v)
	case 14:
		h.reportingEntityName = string(v)
	case 16:
		h.sourceName = string(v)
	case 18:
		h.listenerVersion = string(v)
	case 19:
		h.stndDefinedNamespace = string(v)
	}
}

func (h *header) setVarint(num protowire.Number, v uint64) {
	switch num {
	case 4:
		h.priority = uint64(uint32(v)) // an enum is an int32 on the wire
	case 8:
		h.lastEpochMicrosec = v
	case 9:
		h.startEpochMicrosec = v
	}
}

// decoder decodes the payloads of one connection.
type decoder struct {
	h header
}

// decode returns the payload's header, or false when the payload is not a
// VesEvent. The header is valid until the next call.
func (d *decoder) decode(payload []byte) (*header, bool) {
	if !decodeEvent(payload, &d.h) {
		return nil, false
	}
	return &d.h, true
}

// validHeader applies the collector's header validation: every required
// field set (proto3 has no presence for these, so set means not the
// default: a priority must be given, and sequence 0 is fine) and a
// listener version the collector's pattern matches.
func validHeader(h *header) bool {
	for _, s := range []string{h.version, h.domain, h.eventID, h.eventName, h.reportingEntityName, h.sourceName,
		h.listenerVersion} {
		if s == "" {
			return false
		}
	}
	if h.priority == 0 || h.lastEpochMicrosec == 0 || h.startEpochMicrosec == 0 {
		return false
	}
	return listenerVersionOK(h.listenerVersion)
}

// listenerVersionOK matches the collector's pattern 7\.[0-9].* against
// the whole value with Java's regex semantics: '.' matches any character
// but a line terminator (\n, \r, U+0085, U+2028, U+2029).
func listenerVersionOK(v string) bool {
	if len(v) < 3 || v[0] != '7' || v[1] != '.' || v[2] < '0' || v[2] > '9' {
		return false
	}
	return !strings.ContainsAny(v[3:], "\n\r\u0085\u2028\u2029")
}
