package hv

// Drop causes, as the collector labels hvves_messages_dropped_cause_total.
const (
	DropInvalid       = "invalid"
	DropRouteNotFound = "routing"
)

// Rejection causes of hvves_clients_rejected_cause_total: the client was
// disconnected. The first three are the collector's labels; a failed TLS
// handshake is the emulator's own. RejectUnexpected is what the collector
// counts for any other error that ends a client's stream: a length with
// the top bit set (a negative size, which fails allocating the payload)
// and a travel time its timer cannot hold in nanoseconds.
const (
	RejectMarker     = "invalid_marker"
	RejectTooBig     = "too_big_payload"
	RejectUnexpected = "unexpected"
	RejectHandshake  = "tls_handshake"
	disconnectIdle   = "idle"
	disconnectClosed = "closed"
)
