package hv

import (
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/vesload/vesload/testserver/hv/internal/vespb"
)

// decoder turns a payload into a header with protobuf's own rules, as the
// collector's generated Java code does: unknown fields (and known fields
// sent with another wire type) are kept aside, an embedded message that
// occurs more than once is merged, and a string field that is not valid
// UTF-8 fails the whole message.
type decoder struct {
	ev vespb.VesEvent
}

// decode returns the payload's header, or false when the payload is not a
// VesEvent. The header is valid until the next call.
func (d *decoder) decode(payload []byte) (*vespb.CommonEventHeader, bool) {
	proto.Reset(&d.ev)
	if err := proto.Unmarshal(payload, &d.ev); err != nil {
		return nil, false
	}
	// An absent header reads as an empty one, which fails validation.
	return d.ev.GetCommonEventHeader(), true
}

// validHeader applies the collector's header validation: every required
// field set (proto3 has no presence for these, so set means not the
// default: a priority must be given, and sequence 0 is fine) and a
// listener version the collector's pattern matches.
func validHeader(h *vespb.CommonEventHeader) bool {
	for _, s := range []string{h.GetVersion(), h.GetDomain(), h.GetEventId(), h.GetEventName(),
		h.GetReportingEntityName(), h.GetSourceName(), h.GetVesEventListenerVersion()} {
		if s == "" {
			return false
		}
	}
	if h.GetPriority() == vespb.CommonEventHeader_PRIORITY_NOT_PROVIDED || h.GetLastEpochMicrosec() == 0 ||
		h.GetStartEpochMicrosec() == 0 {
		return false
	}
	return listenerVersionOK(h.GetVesEventListenerVersion())
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
