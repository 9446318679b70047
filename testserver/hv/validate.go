package hv

import (
	"github.com/vesload/vesload/loadgen/hv/wtp"
)

// Drop causes, as the collector labels hvves_messages_dropped_cause_total.
const (
	DropInvalid       = "invalid"
	DropRouteNotFound = "route_not_found"
)

// Rejection causes of hvves_clients_rejected_cause_total: the client was
// disconnected.
const (
	RejectMarker     = "invalid_wire_frame_marker"
	RejectTooBig     = "too_big_payload"
	RejectHandshake  = "tls_handshake"
	disconnectIdle   = "idle"
	disconnectClosed = "closed"
)

// validHeader applies the collector's header validation: every required
// field present, a priority given and a 7.x listener version.
func validHeader(h *wtp.EventHeader) bool {
	for _, s := range [][]byte{h.Version, h.Domain, h.EventID, h.EventName, h.ReportingEntityName, h.SourceName} {
		if len(s) == 0 {
			return false
		}
	}
	if h.Priority == 0 || h.LastEpochMicrosec == 0 || h.StartEpochMicrosec == 0 {
		return false
	}
	v := h.ListenerVersion
	if len(v) < 3 || v[0] != '7' || v[1] != '.' {
		return false
	}
	for _, c := range v[2:] {
		if c < '0' || c > '9' {
			if c == '.' {
				continue
			}
			return false
		}
	}
	return true
}
