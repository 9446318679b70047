package result

// Delivery is what a consumer of the collector's output topic saw of the
// run's events: the proof, past the 202, that they arrived
// (docs/ARCHITECTURE.md, "Delivery"). Counts are of events (a batch
// request carries several).
type Delivery struct {
	// Source is where the events were read: kafka://HOST:PORT/TOPIC or
	// dmaap://HOST:PORT/events/TOPIC/GROUP/ID, without credentials.
	Source string `json:"source"`
	// TimestampType is the record timestamp E2E is measured to:
	// CreateTime, LogAppendTime, mixed, or none (DMaaP carries none).
	TimestampType string  `json:"timestamp_type"`
	GraceS        float64 `json:"grace_s"`
	// Expected counts the events of the requests sent; Accepted those of
	// the requests answered 2xx.
	Expected int64 `json:"expected"`
	Accepted int64 `json:"accepted"`
	// NoAnswers is set for protocols that answer nothing (HV-VES):
	// Expected is then every event written and Accepted is 0.
	NoAnswers bool `json:"no_answers,omitempty"`
	// Delivered counts distinct events of the run read from the source.
	Delivered int64 `json:"delivered"`
	// Lost is Expected − Delivered: sent, not seen within the grace.
	Lost int64 `json:"lost"`
	// LostThoughAccepted counts events answered 2xx and never delivered:
	// the flaw of a collector that answers before its broker does.
	LostThoughAccepted int64 `json:"lost_though_accepted"`
	// DeliveredThoughRejected counts events delivered although their
	// request got an error (a failure misattributed, or a timeout).
	DeliveredThoughRejected int64 `json:"delivered_though_rejected"`
	Duplicates              int64 `json:"duplicates"`
	// OutOfOrder counts events read after a later event of the run on the
	// same partition.
	OutOfOrder int64 `json:"out_of_order"`
	// Foreign counts records that are not this run's events (other
	// traffic on the topic); they are otherwise ignored.
	Foreign int64 `json:"foreign"`
	Records int64 `json:"records"`
	// ClockSkewed counts events whose record timestamp is a millisecond
	// or more before their due time (clocks apart; Kafka timestamps are
	// whole milliseconds); they are recorded as 0.
	ClockSkewed int64 `json:"clock_skewed,omitempty"`
	// SourceErrors counts failed reads of the topic (fetch or poll
	// errors, retried); LastError is the last one's text.
	SourceErrors int64  `json:"source_errors,omitempty"`
	LastError    string `json:"last_error,omitempty"`
	// E2E is due time → record timestamp; Consumed is due time → read by
	// vesload.
	E2E      Summary `json:"e2e_ms"`
	Consumed Summary `json:"consumed_ms"`
	// LagMax is the largest consumer lag (records behind the end of the
	// topic) seen; -1 when the source does not tell.
	LagMax     int64              `json:"lag_max"`
	Histograms DeliveryHistograms `json:"histograms"`
	Timeline   []DeliverySecond   `json:"timeline,omitempty"`
}

// DeliveryHistograms carries the end-to-end distributions encoded as
// Histograms does, so that merges are exact.
type DeliveryHistograms struct {
	E2E      string `json:"e2e"`
	Consumed string `json:"consumed"`
}

// DeliverySecond is one second of the delivery timeline, by the time the
// events were read (T: seconds from the start of the run).
type DeliverySecond struct {
	T         int64   `json:"t"`
	Delivered int64   `json:"delivered"`
	P50Ms     float64 `json:"e2e_p50_ms"`
	P99Ms     float64 `json:"e2e_p99_ms"`
	MaxMs     float64 `json:"e2e_max_ms"`
	Lag       int64   `json:"lag"`
}
