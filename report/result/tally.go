package result

import (
	"fmt"
	"maps"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The error classes of the taxonomy (docs/ARCHITECTURE.md, "Error
// taxonomy"): the keys of Result.Errors, of the timeline's errors by class
// and of a threshold's error_rate{class}. They are defined here once; the
// transports, the HV-VES producers, the metrics and vesload merge use these
// names. A status outside what counts as success is HTTPClassPrefix and
// the code ("http_503").
const (
	// OutcomeOK is the class of a request that succeeded.
	OutcomeOK = "ok"
	// ClassPoolExhausted is the class of a due request that never got a
	// connection: it was not sent, yet it failed.
	ClassPoolExhausted = "pool_exhausted"
	// ClassDisconnected is the class of a due HV-VES message whose
	// producer had no connection at its due time: like pool_exhausted,
	// not sent, yet failed.
	ClassDisconnected = "disconnected"
	// ClassAborted is the class of a sent request that a stop cut off
	// before its answer came.
	ClassAborted = "aborted"
	// ClassTimeout: no answer within the request timeout (or a dial or
	// write deadline).
	ClassTimeout = "timeout"
	// ClassConnRefused: the target refused the connection.
	ClassConnRefused = "conn_refused"
	// ClassConnReset: the connection was reset or closed under the
	// request (RST, EPIPE, EOF).
	ClassConnReset = "conn_reset"
	// ClassDNS: the target's name did not resolve.
	ClassDNS = "dns"
	// ClassTLS: the TLS handshake failed (certificate, alert, record).
	ClassTLS = "tls"
	// ClassTooLarge: an answer body over the client's limit.
	ClassTooLarge = "response_too_large"
	// ClassBadResponse: an answer that is not HTTP.
	ClassBadResponse = "bad_response"
	// ClassOther: any other error.
	ClassOther = "other"
	// HTTPClassPrefix prefixes the class of an unexpected status.
	HTTPClassPrefix = "http_"
)

// Outcome is the fate of one due request, which is all a Tally needs to
// count it. Its fields are plain values so that recording one allocates
// nothing.
type Outcome struct {
	// Class is OutcomeOK or an error key of the result document
	// ("http_503", "timeout", "pool_exhausted", …).
	Class string
	// MessageID is the messageId of a VES error body, when there was one.
	MessageID string
	// Latency runs from the due time to the response, Service from the
	// hand-over to a connection to the response. Neither is recorded for a
	// request that was never sent (pool_exhausted).
	Latency, Service time.Duration
	// BytesSent and BytesReceived are the bytes of the exchange on the
	// wire, headers included (see result.Bytes).
	BytesSent, BytesReceived int64
}

// Tally is the accounting of a set of requests: a whole run, one step, one
// request kind, one second of the timeline, a checkpoint, a merge of runs
// or the abort window. It is one value type so that all of these count the
// same way and combine without hand-written copies: Add one outcome, Merge
// another Tally, Clone for a snapshot that shares nothing.
//
// The zero value is an empty Tally ready to use. A Tally is not safe for
// concurrent use; its owner serialises access.
type Tally struct {
	// Scheduled counts due requests: every Add and every AddNotSent.
	Scheduled int64
	// Sent counts requests that went to a connection and have an outcome.
	Sent int64
	// OK counts successful requests; Errors every failure, pool_exhausted
	// included.
	OK, Errors int64
	// NotSent counts due requests a stop cut off before they left.
	NotSent int64
	// InFlight counts sent requests without an answer yet (a checkpoint's
	// snapshot); they are in Sent but neither OK nor Errors.
	InFlight int64
	// Classes counts failures by error class; Errors is their sum.
	Classes map[string]int64
	// MessageIDs counts the messageId of VES error bodies.
	MessageIDs map[string]int64
	// BytesSent and BytesReceived sum the bytes on the wire of sent
	// requests, headers included.
	BytesSent, BytesReceived int64
	// Latency and Service hold the distributions of sent requests in
	// microseconds, in the standard geometry (NewHistogram).
	Latency, Service *hdrhistogram.Histogram
	// OKLatency and ErrorLatency, when present, split Latency between the
	// successful and the failed requests, and Failures, when present,
	// counts the failures by class and messageId together: what an output
	// that reports ok and ko apart needs (InfluxDB's rows, as JMeter
	// writes them), built once with the rest. Only the timeline's seconds
	// carry them (NewSecondTally); Add fills them when they exist, so the
	// run's and the steps' Tallies pay nothing for them.
	OKLatency, ErrorLatency *hdrhistogram.Histogram
	Failures                map[Failure]int64
}

// Failure is one kind of failure: its error class and the messageId of
// its VES error body ("" without one), the pair JMeter's error rows name.
type Failure struct {
	Class, MessageID string
}

// NewSecondTally is NewTally with the split by outcome (OKLatency,
// ErrorLatency, Failures) that the timeline's seconds carry.
func NewSecondTally() Tally {
	t := NewTally()
	t.OKLatency, t.ErrorLatency = NewHistogram(), NewHistogram()
	t.Failures = map[Failure]int64{}
	return t
}

// NewTally returns an empty Tally whose maps and histograms already exist,
// so that the first Add on a hot path does not allocate them.
func NewTally() Tally {
	return Tally{
		Classes:    map[string]int64{},
		MessageIDs: map[string]int64{},
		Latency:    NewHistogram(),
		Service:    NewHistogram(),
	}
}

// Add counts one due request's outcome. Once the Tally's maps hold the
// outcome's keys it allocates nothing.
func (t *Tally) Add(o Outcome) {
	t.Scheduled++
	if !NeverSent(o.Class) {
		t.Sent++
		t.BytesSent += o.BytesSent
		t.BytesReceived += o.BytesReceived
		t.histograms()
		_ = t.Latency.RecordValue(Micros(o.Latency))
		_ = t.Service.RecordValue(Micros(o.Service))
		t.split(o)
	}
	if o.Class == OutcomeOK {
		t.OK++
		return
	}
	t.Errors++
	if t.Failures != nil {
		t.Failures[Failure{Class: o.Class, MessageID: o.MessageID}]++
	}
	if t.Classes == nil {
		t.Classes = map[string]int64{}
	}
	t.Classes[o.Class]++
	if o.MessageID != "" {
		if t.MessageIDs == nil {
			t.MessageIDs = map[string]int64{}
		}
		t.MessageIDs[o.MessageID]++
	}
}

// split records a sent request's latency in OKLatency or ErrorLatency,
// when the Tally has them.
func (t *Tally) split(o Outcome) {
	h := t.ErrorLatency
	if o.Class == OutcomeOK {
		h = t.OKLatency
	}
	if h != nil {
		_ = h.RecordValue(Micros(o.Latency))
	}
}

// NeverSent reports whether class is an error of a due request that was
// never sent (pool_exhausted; disconnected for HV-VES): it is counted
// among the errors but not among the sent, and has no latency. The one
// definition the tallies, the accounting and the live metrics use.
func NeverSent(class string) bool {
	return class == ClassPoolExhausted || class == ClassDisconnected
}

// AddAborted counts n sent requests that a stop cut off before their
// answer came: failures without a latency, since none was measured.
func (t *Tally) AddAborted(n int64) {
	if n <= 0 {
		return
	}
	t.Scheduled += n
	t.Sent += n
	t.Errors += n
	if t.Classes == nil {
		t.Classes = map[string]int64{}
	}
	t.Classes[ClassAborted] += n
}

// AddInFlight counts n sent requests still waiting for their answer, for
// a snapshot of a run in progress: they are neither a success nor an error
// yet.
func (t *Tally) AddInFlight(n int64) {
	if n <= 0 {
		return
	}
	t.Scheduled += n
	t.Sent += n
	t.InFlight += n
}

// AddNotSent counts n due requests that a stop cut off before they left.
func (t *Tally) AddNotSent(n int64) {
	t.Scheduled += n
	t.NotSent += n
}

// Merge adds every count and distribution of o to t. Histograms of the
// standard geometry merge without loss. The split by outcome (OKLatency,
// ErrorLatency, Failures) is added only into a Tally that carries it, as
// Add fills it: the abort guard's window, say, merges seconds that may
// carry it and does not want it.
func (t *Tally) Merge(o *Tally) {
	t.Scheduled += o.Scheduled
	t.Sent += o.Sent
	t.OK += o.OK
	t.Errors += o.Errors
	t.NotSent += o.NotSent
	t.InFlight += o.InFlight
	t.BytesSent += o.BytesSent
	t.BytesReceived += o.BytesReceived
	t.Classes = addCounts(t.Classes, o.Classes)
	t.MessageIDs = addCounts(t.MessageIDs, o.MessageIDs)
	if t.Failures != nil {
		t.Failures = addCounts(t.Failures, o.Failures)
	}
	mergeInto(t.OKLatency, o.OKLatency)
	mergeInto(t.ErrorLatency, o.ErrorLatency)
	if o.Latency != nil || o.Service != nil {
		t.histograms()
	}
	if o.Latency != nil {
		t.Latency.Merge(o.Latency)
	}
	if o.Service != nil {
		t.Service.Merge(o.Service)
	}
}

// Clone returns a copy of t that shares nothing with it, for snapshots
// taken while t keeps counting.
func (t *Tally) Clone() Tally {
	c := *t
	c.Classes = maps.Clone(t.Classes)
	c.MessageIDs = maps.Clone(t.MessageIDs)
	if t.Latency != nil {
		c.Latency = t.Latency.Clone()
	}
	if t.Service != nil {
		c.Service = t.Service.Clone()
	}
	c.Failures = maps.Clone(t.Failures)
	if t.OKLatency != nil {
		c.OKLatency = t.OKLatency.Clone()
	}
	if t.ErrorLatency != nil {
		c.ErrorLatency = t.ErrorLatency.Clone()
	}
	return c
}

// Reset empties t and keeps its maps and histograms, so that a Tally
// reused for every second of a run allocates nothing after its first.
func (t *Tally) Reset() {
	classes, ids, failures := t.Classes, t.MessageIDs, t.Failures
	lat, svc, okLat, errLat := t.Latency, t.Service, t.OKLatency, t.ErrorLatency
	clear(classes)
	clear(ids)
	clear(failures)
	for _, h := range [...]*hdrhistogram.Histogram{lat, svc, okLat, errLat} {
		if h != nil {
			h.Reset()
		}
	}
	*t = Tally{Classes: classes, MessageIDs: ids, Failures: failures,
		Latency: lat, Service: svc, OKLatency: okLat, ErrorLatency: errLat}
}

// Requests is the request accounting of the result document.
func (t *Tally) Requests() Requests {
	return Requests{Scheduled: t.Scheduled, Sent: t.Sent, OK: t.OK, Errors: t.Errors, NotSent: t.NotSent, InFlight: t.InFlight}
}

// AccountingError checks the Tally's invariants and describes the first
// one broken, or returns nil:
//
//	scheduled = sent + unsent + not_sent   (no request lost)
//	errors    = the sum of the classes
//	sent      = ok + errors − unsent + in_flight (every sent request has one outcome or none yet)
//	sent      ≥ the number of latency values      (aborted ones have none)
//
// where unsent counts the errors never sent: pool_exhausted and
// disconnected (NeverSent).
func (t *Tally) AccountingError() error {
	if err := scheduledError(t.Scheduled, t.Sent, t.NotSent, t.Classes); err != nil {
		return err
	}
	pe, unsent := UnsentErrors(t.Classes), unsentClasses(t.Classes)
	var sum int64
	for _, n := range t.Classes {
		sum += n
	}
	if t.Errors != sum {
		return fmt.Errorf("errors %d != %d, the sum of the error classes", t.Errors, sum)
	}
	if t.Sent != t.OK+t.Errors-pe+t.InFlight {
		return fmt.Errorf("sent %d != ok %d + errors %d - %s %d + in_flight %d", t.Sent, t.OK, t.Errors, unsent, pe, t.InFlight)
	}
	var n int64
	if t.Latency != nil {
		n = t.Latency.TotalCount()
	}
	if n > t.Sent {
		return fmt.Errorf("sent %d < %d latency values", t.Sent, n)
	}
	return nil
}

// Micros converts a duration into the histograms' unit, rounded to the
// nearest microsecond and clamped into the standard geometry so that no
// value is ever refused.
func Micros(d time.Duration) int64 {
	us := (int64(d) + 500) / 1000
	return min(max(us, HistogramLowestUs), HistogramHighestUs)
}

// histograms creates the distributions of a zero Tally on first use.
func (t *Tally) histograms() {
	if t.Latency == nil {
		t.Latency = NewHistogram()
	}
	if t.Service == nil {
		t.Service = NewHistogram()
	}
}

// mergeInto adds src into dst when both exist.
func mergeInto(dst, src *hdrhistogram.Histogram) {
	if dst != nil && src != nil {
		dst.Merge(src)
	}
}

// addCounts adds src into dst, creating dst when needed.
func addCounts[K comparable](dst, src map[K]int64) map[K]int64 {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(map[K]int64, len(src))
	}
	for k, n := range src {
		dst[k] += n
	}
	return dst
}
