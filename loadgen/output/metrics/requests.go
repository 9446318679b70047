package metrics

import (
	"maps"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vesload/vesload/report/result"
)

// maxRequestSeries caps the outcome × code pairs: a handful of classes and
// status codes occur in practice, and a bug upstream must not grow the
// series (or the cache) without bound.
const maxRequestSeries = 64

// Label values used when a caller's value does not fit.
const (
	outcomeOther = "other" // an outcome that is not a short class name, or past the cap
	codeNone     = "none"  // no HTTP status: the request got no response
)

// requestKey is what a caller passes; its counter is resolved once.
type requestKey struct {
	outcome string
	code    int
}

// CountRequest counts one completed or failed request. outcome is "ok"
// or an error class (http_503, timeout, pool_exhausted, …); code is the
// HTTP status, 0 without a response. A request of a class that was never
// sent (result.NeverSent: pool_exhausted, disconnected) is also counted in
// vesload_requests_not_sent_total; its latency is in no histogram (the
// engine's seconds hold only the requests sent, ObserveSecond). It
// allocates nothing once a pair of outcome and code has been seen;
// anything that does not look like a class name is counted as "other", so
// no message can become a label.
func (e *Exporter) CountRequest(outcome string, code int) {
	e.requestCounter(outcome, code).Inc()
	if outcome == result.ClassPoolExhausted {
		e.poolExhausted.Inc()
	}
	if result.NeverSent(outcome) {
		e.notSent.Inc()
	}
}

// ObserveSecond merges the latency and service-time histograms of one
// second of the timeline, as the engine built them, into the exported
// histograms; t is only read.
func (e *Exporter) ObserveSecond(t *result.Tally) { e.hist.add(t) }

// requestCounter returns the counter for outcome and code: a lookup without a
// lock once the pair has been seen, resolved under e.mu the first time.
func (e *Exporter) requestCounter(outcome string, code int) prometheus.Counter {
	k := requestKey{outcome, code}
	if c, ok := (*e.counters.Load())[k]; ok {
		return c
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	known := *e.counters.Load()
	if c, ok := known[k]; ok {
		return c
	}
	if len(known) >= maxRequestSeries {
		return e.requests.WithLabelValues(codeNone, outcomeOther)
	}
	o := outcome
	if !isClass(o) {
		o = outcomeOther
	}
	c := e.requests.WithLabelValues(codeLabel(code), o)
	next := maps.Clone(known)
	next[k] = c
	e.counters.Store(&next)
	return c
}

// isClass reports whether s looks like an outcome class: a short
// lower-case word of letters, digits and underscores.
func isClass(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// codeLabel renders an HTTP status code, or "none" for anything that is
// not one.
func codeLabel(code int) string {
	if code < 100 || code > 599 {
		return codeNone
	}
	return strconv.Itoa(code)
}
