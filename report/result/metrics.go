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
	return scheduledError(r.Requests.Scheduled, r.Requests.Sent, r.Requests.NotSent, r.Errors)
}

// UnsentErrors counts the errors of due requests that were never sent
// (the NeverSent classes: pool_exhausted, disconnected) among the error
// classes: the one sum the accounting, its checks and the renderings use.
func UnsentErrors(classes map[string]int64) int64 {
	return classes[ClassPoolExhausted] + classes[ClassDisconnected]
}

// UnsentRow is the one row the renderings show for the errors never
// sent: named after disconnected when there are any (an HV-VES run whose
// producer lost its connection), else after pool_exhausted, with
// UnsentErrors as its count.
func UnsentRow(classes map[string]int64) (class string, n int64) {
	class = ClassPoolExhausted
	if classes[ClassDisconnected] > 0 {
		class = ClassDisconnected
	}
	return class, UnsentErrors(classes)
}

// scheduledError checks scheduled = sent + unsent + not_sent, for a
// Result and a Tally alike, and describes the mismatch.
func scheduledError(scheduled, sent, notSent int64, classes map[string]int64) error {
	pe := UnsentErrors(classes)
	if scheduled == sent+pe+notSent {
		return nil
	}
	return fmt.Errorf("scheduled %d != sent %d + %s %d + not_sent %d (%+d unaccounted)",
		scheduled, sent, unsentClasses(classes), pe, notSent, scheduled-(sent+pe+notSent))
}

// unsentClasses names the error classes of due requests that were not
// sent, as the accounting counts them.
func unsentClasses(classes map[string]int64) string {
	if classes[ClassDisconnected] > 0 {
		return ClassPoolExhausted + " + " + ClassDisconnected
	}
	return ClassPoolExhausted
}
