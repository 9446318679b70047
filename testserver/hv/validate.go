package hv

import (
	"github.com/vesload/vesload/loadgen/hv/wtp"
)

// Drop causes, as the collector labels hvves_messages_dropped_cause_total.
const (
	DropInvalid       = "invalid"
	DropRouteNotFound = "routing"
)

// Rejection causes of hvves_clients_rejected_cause_total: the client was
// disconnected. The first two are the collector's labels; a failed TLS
// handshake is the emulator's own.
const (
	RejectMarker     = "invalid_marker"
	RejectTooBig     = "too_big_payload"
	RejectHandshake  = "tls_handshake"
	disconnectIdle   = "idle"
	disconnectClosed = "closed"
)

// validHeader applies the collector's header validation: every required
// field present (in proto3, not the default value: so a priority must be
// given) and a listener version matching 7\.[0-9].* as a whole. The
// sequence may be 0.
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
	return len(v) >= 3 && v[0] == '7' && v[1] == '.' && v[2] >= '0' && v[2] <= '9'
}
