package transport

// PreflightSeq is the sequence number the preflight's request is rendered
// with: beyond any run's requests (2^31 - 2 of them is 68 years at
// 1,000/s; a schedule that plans as many sends no preflight request), so
// that its eventId ("<run id>-2147483646") is told apart from the run's
// own in the collector's logs and by the delivery follower. It and
// JMeter's 1-based ${__counter} (PreflightSeq+1) are 32-bit signed
// integers still, as Java collectors read a VES event's sequence.
const PreflightSeq = 1<<31 - 2

// Prober is a Transport whose preflight can send one real request (a
// valid event of the run) before the schedule starts, so that a target
// that refuses every request (a missing listener path, refused
// credentials) stops the run in a second instead of at its end.
type Prober interface {
	Transport
	// Probe sends r once, outside the run's figures, and fills o; the
	// request's timeout bounds it.
	Probe(r *Request, o *Outcome)
	// Explain names the likely cause of requests failing with class (the
	// result's error key: http_405, tls_error, …) and messageID (of a VES
	// error body, or "") in one line, or "" when it knows none.
	Explain(class, messageID string) string
}

// RefusedError is a target that refuses every request: the preflight's
// request failed, or every one of the run's first requests did. It
// names the likely cause; the run exits 3, as a failed rule does.
type RefusedError struct {
	// Why is the one-line explanation.
	Why string
	// Err is the error behind it, if any.
	Err error
}

// Error returns the explanation.
func (e *RefusedError) Error() string { return e.Why }

// Unwrap returns the error behind the explanation.
func (e *RefusedError) Unwrap() error { return e.Err }
