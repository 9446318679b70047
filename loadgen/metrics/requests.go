package metrics

import (
	"cmp"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/promtext"
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

// outcomePoolExhausted is the class that also counts as pool exhaustion.
const outcomePoolExhausted = "pool_exhausted"

// requestKey is what a caller passes; its counter is resolved once.
type requestKey struct {
	outcome string
	code    int
}

// requestLabels are the label values of one vesload_requests_total series.
type requestLabels struct {
	outcome, code string
}

// ObserveRequest records one completed or failed request. outcome is "ok"
// or an error class (http_503, timeout, pool_exhausted, …); code is the
// HTTP status, 0 without a response. A zero latency or service time means
// the request never got that far (no connection, nothing written) and is
// not observed. It allocates nothing once a pair of outcome and code has
// been seen; anything that does not look like a class name is counted as
// "other", so no message can become a label.
func (e *Exporter) ObserveRequest(outcome string, code int, latency, service time.Duration) {
	e.counter(outcome, code).inc()
	if outcome == outcomePoolExhausted {
		e.poolExhausted.inc()
	}
	if latency > 0 {
		e.latency.observe(latency)
	}
	if service > 0 {
		e.service.observe(service)
	}
}

// counter returns the counter for outcome and code: a lookup without a
// lock once the pair has been seen, resolved under e.mu the first time.
func (e *Exporter) counter(outcome string, code int) *counter {
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
		return e.seriesFor(requestLabels{outcomeOther, codeNone})
	}
	o := outcome
	if !isClass(o) {
		o = outcomeOther
	}
	c := e.seriesFor(requestLabels{o, codeLabel(code)})
	next := maps.Clone(known)
	next[k] = c
	e.counters.Store(&next)
	return c
}

// seriesFor returns the counter of one labelled series, creating it; the
// caller holds e.mu.
func (e *Exporter) seriesFor(l requestLabels) *counter {
	c, ok := e.requests[l]
	if !ok {
		c = new(counter)
		e.requests[l] = c
	}
	return c
}

// writeRequests renders vesload_requests_total, sorted by its labels.
func (e *Exporter) writeRequests(w *promtext.Writer) {
	all := sortedSeries(&e.mu, e.requests, func(a, b requestLabels) int {
		return cmp.Or(strings.Compare(a.code, b.code), strings.Compare(a.outcome, b.outcome))
	})
	w.Header("vesload_requests_total", promtext.Counter,
		"Requests completed or failed, by outcome (ok or an error class such as http_503, timeout, pool_exhausted) and HTTP status code (none without a response).")
	for _, s := range all {
		w.Count("vesload_requests_total",
			[]promtext.Label{{Name: "code", Value: s.key.code}, {Name: "outcome", Value: s.key.outcome}}, s.val.get())
	}
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
