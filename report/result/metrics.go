package result

import "fmt"

// Derived figures shared by the renderers and the thresholds, so that the
// text summary, the seed table and a CI gate never disagree on what
// "error rate" means.

// Attempted is the number of requests whose due time came before the stop:
// those sent plus those refused for want of a connection (pool_exhausted).
// It is the denominator of the error rate.
func (r *Result) Attempted() int64 {
	return r.Requests.Scheduled - r.Requests.NotSent
}

// ErrorRatePct is the share of attempted requests that failed, in percent
// (Requests.Errors counts every failure, pool_exhausted included). ok is
// false when nothing was attempted and the rate is undefined.
func (r *Result) ErrorRatePct() (pct float64, ok bool) {
	n := r.Attempted()
	if n <= 0 {
		return 0, false
	}
	return 100 * float64(r.Requests.Errors) / float64(n), true
}

// AccountingError checks the invariant
// scheduled = sent + pool_exhausted + not_sent (docs/ARCHITECTURE.md, "Accounting") and describes
// the mismatch, or returns nil when every scheduled request is accounted
// for. An HV-VES message due while its producer had no connection
// (disconnected) is, like pool_exhausted, an error that was never sent.
func (r *Result) AccountingError() error {
	q := r.Requests
	pe := r.Errors[ClassPoolExhausted] + r.Errors[ClassDisconnected]
	if q.Scheduled == q.Sent+pe+q.NotSent {
		return nil
	}
	return fmt.Errorf("scheduled %d != sent %d + %s %d + not_sent %d (%+d unaccounted)",
		q.Scheduled, q.Sent, unsentClasses(r), pe, q.NotSent, q.Scheduled-(q.Sent+pe+q.NotSent))
}

// unsentClasses names the error classes of due requests that were not
// sent, as the accounting of this result counts them.
func unsentClasses(r *Result) string {
	if r.Errors[ClassDisconnected] > 0 {
		return ClassPoolExhausted + " + " + ClassDisconnected
	}
	return ClassPoolExhausted
}
