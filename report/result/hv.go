package result

// ProtocolHV is config.protocol of an HV-VES run.
const ProtocolHV = "hv-ves"

// HV is the HV-VES part of a result: a run of producers writing WTP
// frames to a high-volume collector, which never answers. Requests
// counts messages (ok = written in full); Latency is due time → write
// done and Service the time blocked in the write (TCP back-pressure).
type HV struct {
	Addr      string  `json:"addr"`
	TLS       bool    `json:"tls"`
	Producers int     `json:"producers"`
	Messages  int     `json:"messages_per_producer"`
	SizeBytes int     `json:"size_bytes"` // VesEvent bytes; each frame is 12 more
	IntervalS float64 `json:"interval_s"` // between two messages of one producer
	Domain    string  `json:"domain"`

	Sent      HVCounts         `json:"sent"`
	NotSentBy map[string]int64 `json:"not_sent_by,omitempty"`
	// MBps is the average data rate written over the run's span and
	// PeakMBps the highest of its seconds, in MB/s (10^6 bytes, frames
	// included): the seeds' "peak incoming data rate". A partial last
	// second is joined to the one before it (a run under a second has one
	// period, its span), so the peak is never below the average.
	MBps     float64 `json:"mbps"`
	PeakMBps float64 `json:"peak_mbps"`

	WriteBlocked Summary `json:"write_blocked_ms"`
	Connect      Summary `json:"connect_ms"`
	Handshake    Summary `json:"tls_handshake_ms"`
	Connects     int64   `json:"connects"`
	Reconnects   int64   `json:"reconnects"`
	// WrittenIntoBroken counts the messages written (and counted in
	// Sent.Written) into connections that then broke: a later write on
	// the same connection failed. The kernel took each of them, but the
	// collector may or may not have read them before the connection went;
	// counted since the connection was made, the last point it was known
	// to work (HV-VES never answers), so it is an upper bound.
	WrittenIntoBroken int64 `json:"written_into_broken,omitempty"`
	// Disconnects counts dropped connections by cause; DialErrors failed
	// attempts to re-make one.
	Disconnects map[string]int64 `json:"disconnects,omitempty"`
	DialErrors  map[string]int64 `json:"dial_errors,omitempty"`

	ByProducer []HVProducer `json:"by_producer"`
	// Receiver is what the receiving side counted, when it could be
	// observed (the built-in emulator, or the collector's metrics).
	Receiver *HVReceiver `json:"receiver,omitempty"`
}

// HVCounts is message accounting: scheduled = sent + not_sent,
// sent = written + failed.
type HVCounts struct {
	Scheduled int64 `json:"scheduled"`
	Sent      int64 `json:"sent"`
	Written   int64 `json:"written"`
	Failed    int64 `json:"failed"`
	NotSent   int64 `json:"not_sent"`
	Bytes     int64 `json:"bytes"`
}

// HVProducer is one producer's share.
type HVProducer struct {
	Source     string   `json:"source"`
	Counts     HVCounts `json:"counts"`
	Reconnects int64    `json:"reconnects"`
}

// HVReceiver is the receiving side's view. Lost is what was written but
// not received: the seeds' "difference between all messages and sent".
type HVReceiver struct {
	Source   string           `json:"source"` // "emulator" or "metrics:URL"
	Received int64            `json:"received"`
	Accepted int64            `json:"accepted"`
	Dropped  map[string]int64 `json:"dropped,omitempty"`
	Lost     int64            `json:"lost"`
	// Extra counts messages the receiver counted beyond those written
	// (Received − written, never negative): traffic from elsewhere, such
	// as the other shards of a run against one collector. Lost is then 0.
	Extra int64 `json:"extra,omitempty"`
	// Duplicates counts eventIds received twice; nil when the receiver
	// does not count them (the real collector does not).
	Duplicates *int64 `json:"duplicates,omitempty"`
	// Travel times run from lastEpochMicrosec (the due time) to receipt;
	// percentiles only where the receiver keeps a distribution (the
	// emulator), the average wherever a sum and count are exposed.
	TravelAvgMs float64 `json:"travel_avg_ms,omitempty"`
	TravelP50Ms float64 `json:"travel_p50_ms,omitempty"`
	TravelP99Ms float64 `json:"travel_p99_ms,omitempty"`
	TravelMaxMs float64 `json:"travel_max_ms,omitempty"`
}
