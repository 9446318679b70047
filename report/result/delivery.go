package result

import (
	"fmt"
	"strconv"
)

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
	TimestampType string `json:"timestamp_type"`
	// TimestampResolutionMs is the resolution of those timestamps: 1 for
	// Kafka, whose record timestamps are whole milliseconds while due
	// times are microseconds; 0 when the source carries none. E2E reads
	// up to this much low, so a figure near it is not resolved.
	TimestampResolutionMs float64 `json:"timestamp_resolution_ms,omitempty"`
	GraceS                float64 `json:"grace_s"`
	// Expected counts the events of the requests sent; Accepted those of
	// the requests answered 2xx.
	Expected int64 `json:"expected"`
	Accepted int64 `json:"accepted"`
	// NoAnswers is set for protocols that answer nothing (HV-VES):
	// Expected is then every event written and Accepted is 0.
	NoAnswers bool `json:"no_answers,omitempty"`
	// Consumer marks the delivery result of `vesload consume`, which
	// follows a run beside its generators: its own Expected and Accepted
	// are not the run's, and merge takes them (and Lost) from the
	// generators' results it is merged with.
	Consumer bool `json:"consumer,omitempty"`
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

// coarseSteps is how many timestamp steps an end-to-end average must span
// for the record's figure to stand for it: below ten steps, the
// truncation of the timestamps (up to one step) is more than a tenth of
// what they measure.
const coarseSteps = 10

// Resolution is the record timestamps' resolution in ms. Results written
// before it was recorded say 1 when they carry timestamps: every source
// with timestamps is Kafka.
func (d *Delivery) Resolution() float64 {
	switch {
	case d.TimestampResolutionMs > 0:
		return d.TimestampResolutionMs
	case d.TimestampType == "" || d.TimestampType == "none":
		return 0
	}
	return 1
}

// ProcessingTime is the end-to-end figure that stands for the
// collector's processing time (the seed table's "Avg VES processing
// time"): to the record timestamp, which leaves out the consumer's
// polling, unless the timestamps are too coarse for the figure (an
// average under ten timestamp steps) or absent; then to the read, timed
// in microseconds on vesload's own clock, which includes the consumer's
// delay and so bounds the time from above. toRead says which; ok is
// false when nothing was delivered.
func (d *Delivery) ProcessingTime() (s Summary, toRead, ok bool) {
	res := d.Resolution()
	coarse := res > 0 && d.E2E.Avg < coarseSteps*res
	switch {
	case d.E2E.Count > 0 && (!coarse || d.Consumed.Count == 0):
		return d.E2E, false, true
	case d.Consumed.Count > 0:
		return d.Consumed, true, true
	}
	return Summary{}, false, false
}

// TimestampsLabel names the record timestamps with their resolution, as
// the reports print it beside the figures measured to them.
func (d *Delivery) TimestampsLabel() string {
	if res := d.Resolution(); res > 0 {
		return fmt.Sprintf("%s, %s ms resolution", d.TimestampType, strconv.FormatFloat(res, 'f', -1, 64))
	}
	return d.TimestampType
}

// ResolutionNotes say how far "to the record" can be trusted and which
// figure the processing time is, so that a sub-millisecond collector
// does not read as taking no time. The text and HTML reports print them
// under the end-to-end figures.
func (d *Delivery) ResolutionNotes() []string {
	var out []string
	res := strconv.FormatFloat(d.Resolution(), 'f', -1, 64)
	if d.E2E.Count > 0 && d.Resolution() > 0 {
		out = append(out, fmt.Sprintf("to the record is measured to whole-millisecond record timestamps: up to %s ms low; to the read is timed in µs on vesload's clock", res))
	}
	s, toRead, ok := d.ProcessingTime()
	ms := strconv.FormatFloat(s.Avg, 'f', 2, 64)
	switch {
	case !ok:
	case toRead && d.E2E.Count > 0:
		out = append(out, fmt.Sprintf("Avg VES processing time is to the read (%s ms): record timestamps are too coarse for it (%s ms resolution)", ms, res))
	case toRead:
		out = append(out, fmt.Sprintf("Avg VES processing time is to the read (%s ms): the source carries no record timestamps", ms))
	default:
		out = append(out, fmt.Sprintf("Avg VES processing time is to the record (%s ms)", ms))
	}
	return out
}
