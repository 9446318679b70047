package hv

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
