package result

// Probe is what `vesload probe` measured: the network between a generator
// and its target before a run. Durations are in milliseconds. It lives
// beside the result document so that loadgen/probe fills it and report
// renders it (text or JSON) without either importing the other.
type Probe struct {
	Target    string    `json:"target"`
	Address   string    `json:"address"`
	ConnectMs []float64 `json:"connect_ms"`
	// ConnectMedianMs is the median of ConnectMs.
	ConnectMedianMs float64 `json:"connect_median_ms"`
	TLSHandshakeMs  float64 `json:"tls_handshake_ms,omitempty"`
	TLSVersion      string  `json:"tls_version,omitempty"`
	// HTTPStatus and RoundTripMs are of one request to the target's URL
	// on a fresh connection (connect and handshake not counted).
	HTTPStatus  int     `json:"http_status,omitempty"`
	RoundTripMs float64 `json:"round_trip_ms,omitempty"`
	// Bulk is the throughput to the sink, when one was given.
	Bulk *ProbeBulk `json:"bulk,omitempty"`
}

// ProbeBulk is one bulk transfer to a sink.
type ProbeBulk struct {
	Sink    string  `json:"sink"`
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
	// MBps is megabytes (10⁶) per second, as iperf3 and ONAP's notes
	// quote them.
	MBps float64 `json:"mb_per_s"`
}
