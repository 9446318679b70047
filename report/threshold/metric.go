package threshold

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vesload/vesload/internal/suggest"
	"github.com/vesload/vesload/report/result"
)

// kind is what a metric measures; it decides the units a value may carry
// and the unit it is compared in.
type kind int

const (
	kindLatency  kind = iota // milliseconds; unit required
	kindPercent              // percent; "%" optional
	kindFraction             // error rate: percent with "%", else a fraction
	kindBytes                // bytes
	kindCount                // a number of requests
	kindRate                 // requests per second
)

// unit is the unit Eval reports a measured value in.
func (k kind) unit() string {
	switch k {
	case kindLatency:
		return "ms"
	case kindPercent, kindFraction:
		return "%"
	case kindBytes:
		return "B"
	case kindRate:
		return "/s"
	}
	return ""
}

// canonicalUnit is the unit String writes, chosen so that the value is
// written exactly as stored (no conversion on re-parsing).
func (k kind) canonicalUnit() string {
	if k == kindRate {
		return ""
	}
	return k.unit()
}

// metric is one measurable figure of a result. get returns the value in
// the metric's unit, or a reason why the result does not have it.
type metric struct {
	name string
	kind kind
	get  func(r *result.Result) (float64, string)
}

// nameError is a metric name that did not resolve; offset is where in the
// name (in characters) the mistake starts.
type nameError struct {
	offset int
	msg    string
}

const metricList = "avg, min, max, p50, p90, p95, p99, p999, service_*, dispatch_lag_*, " +
	"error_rate, errors, errors.<class>, rps, sent, not_sent, scheduled, ok, " +
	"target_cpu_max, target_cpu_avg, target_rss_max, generator_cpu_max, generator_cpu_avg, generator_rss_max, " + hvMetricList +
	", delivery.<count>, e2e_*"

// resolve maps any accepted spelling of a metric name (lower case) to its
// canonical metric.
func resolve(name string) (metric, *nameError) {
	if utf8.RuneCountInString(name) > clipRunes { // longer than any metric's name
		return metric{}, &nameError{0, fmt.Sprintf("unknown metric %q", Clip(name))}
	}
	if field, ok := strings.CutPrefix(name, "hv."); ok {
		return hvMetric(field)
	}
	if class, ok := strings.CutPrefix(name, "errors."); ok {
		return errorClass(class)
	}
	if stat, ok := strings.CutPrefix(name, "service_"); ok {
		return summaryMetric("service_", stat, "no service time was recorded",
			func(r *result.Result) result.Summary { return r.Service }, len("service_"))
	}
	if stat, ok := strings.CutPrefix(name, "dispatch_lag_"); ok {
		return dispatchLag(stat)
	}
	if m, err, ok := deliveryMetric(name); ok {
		return m, err
	}
	if isStat(name) {
		return summaryMetric("", name, "no latency was recorded",
			func(r *result.Result) result.Summary { return r.Latency }, 0)
	}
	if m, ok := simpleMetric(name); ok {
		return m, nil
	}
	if s := suggest.Nearest(name, metricNames()); s != "" {
		return metric{}, &nameError{0, fmt.Sprintf("unknown metric %q: did you mean %s?", name, s)}
	}
	return metric{}, &nameError{0, fmt.Sprintf("unknown metric %q (want %s)", name, metricList)}
}

// metricNames spells out every metric name of metricList, for "did you
// mean": "erorr_rate" is one typo from error_rate, not from a list of 40.
func metricNames() []string {
	stats := []string{"avg", "min", "max", "p50", "p90", "p95", "p99", "p999"}
	var names []string
	for _, prefix := range []string{"", "service_", "e2e_"} {
		for _, s := range stats {
			names = append(names, prefix+s)
		}
	}
	names = append(names, "dispatch_lag_p50", "dispatch_lag_p99", "dispatch_lag_max",
		"error_rate", "errors", "rps", "sent", "not_sent", "scheduled", "ok",
		"target_cpu_max", "target_cpu_avg", "target_rss_max", "generator_cpu_max", "generator_cpu_avg", "generator_rss_max")
	names = append(names, strings.Split(hvMetricList, ", ")...)
	for _, d := range strings.Split(deliveryList, ", ") {
		names = append(names, "delivery."+d)
	}
	return names
}

// isStat tells whether s looks like a latency statistic (avg, p95, p(95)…)
// so that an unsupported percentile gets a precise message.
func isStat(s string) bool {
	return s == "avg" || s == "min" || s == "max" || (strings.HasPrefix(s, "p") && len(s) > 1 && strings.ContainsAny(s[1:2], "(0123456789"))
}

// canonicalStat maps avg, min, max and the percentile spellings p95,
// p(95), p99.9, p(99.9), p999 to the names Summary carries.
func canonicalStat(s string) (string, bool) {
	switch s {
	case "avg", "min", "max":
		return s, true
	}
	p, ok := strings.CutPrefix(s, "p")
	if !ok {
		return "", false
	}
	if inner, ok := strings.CutPrefix(p, "("); ok {
		if p, ok = strings.CutSuffix(inner, ")"); !ok {
			return "", false
		}
	}
	switch p {
	case "50", "90", "95", "99", "999":
		return "p" + p, true
	case "99.9":
		return "p999", true
	}
	return "", false
}

func summaryMetric(prefix, stat, missing string, of func(*result.Result) result.Summary, offset int) (metric, *nameError) {
	c, ok := canonicalStat(stat)
	if !ok {
		return metric{}, &nameError{offset, fmt.Sprintf("unknown statistic %q (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))", stat)}
	}
	return metric{name: prefix + c, kind: kindLatency, get: func(r *result.Result) (float64, string) {
		s := of(r)
		if s.Count == 0 && s.Max == 0 {
			return 0, missing
		}
		return statOf(s, c), ""
	}}, nil
}

func statOf(s result.Summary, stat string) float64 {
	switch stat {
	case "avg":
		return s.Avg
	case "min":
		return s.Min
	case "max":
		return s.Max
	case "p50":
		return s.P50
	case "p90":
		return s.P90
	case "p95":
		return s.P95
	case "p99":
		return s.P99
	}
	return s.P999
}

func dispatchLag(stat string) (metric, *nameError) {
	var get func(g result.Generator) float64
	switch stat {
	case "p50", "p(50)":
		stat, get = "p50", func(g result.Generator) float64 { return g.DispatchLagP50Ms }
	case "p99", "p(99)":
		stat, get = "p99", func(g result.Generator) float64 { return g.DispatchLagP99Ms }
	case "max":
		get = func(g result.Generator) float64 { return g.DispatchLagMaxMs }
	default:
		return metric{}, &nameError{len("dispatch_lag_"), fmt.Sprintf("unknown statistic %q (want p50, p99 or max)", stat)}
	}
	return metric{name: "dispatch_lag_" + stat, kind: kindLatency, get: func(r *result.Result) (float64, string) {
		return get(r.Generator), ""
	}}, nil
}

// simpleMetric resolves the metrics read straight off one field.
func simpleMetric(name string) (metric, bool) {
	present := func(f func(r *result.Result) float64) func(r *result.Result) (float64, string) {
		return func(r *result.Result) (float64, string) { return f(r), "" }
	}
	target := func(f func(t *result.Target) (float64, string)) func(r *result.Result) (float64, string) {
		return func(r *result.Result) (float64, string) {
			if r.Target == nil {
				return 0, "the target was not sampled"
			}
			return f(r.Target)
		}
	}
	m := metric{name: name}
	switch name {
	case "error_rate":
		m.kind, m.get = kindFraction, func(r *result.Result) (float64, string) {
			if pct, ok := r.ErrorRatePct(); ok {
				return pct, ""
			}
			return 0, "no requests were attempted"
		}
	case "errors":
		m.kind, m.get = kindCount, present(func(r *result.Result) float64 { return float64(r.Requests.Errors) })
	case "sent":
		m.kind, m.get = kindCount, present(func(r *result.Result) float64 { return float64(r.Requests.Sent) })
	case "not_sent":
		m.kind, m.get = kindCount, present(func(r *result.Result) float64 { return float64(r.Requests.NotSent) })
	case "scheduled":
		m.kind, m.get = kindCount, present(func(r *result.Result) float64 { return float64(r.Requests.Scheduled) })
	case "ok":
		m.kind, m.get = kindCount, present(func(r *result.Result) float64 { return float64(r.Requests.OK) })
	case "rps":
		m.kind, m.get = kindRate, present(func(r *result.Result) float64 { return r.RPS.Achieved })
	case "generator_cpu_max":
		m.kind, m.get = kindPercent, present(func(r *result.Result) float64 { return r.Generator.CPUMaxPct })
	case "generator_cpu_avg":
		m.kind, m.get = kindPercent, present(func(r *result.Result) float64 { return r.Generator.CPUAvgPct })
	case "generator_rss_max":
		m.kind, m.get = kindBytes, present(func(r *result.Result) float64 { return float64(r.Generator.RSSMaxBytes) })
	case "target_cpu_max":
		m.kind, m.get = kindPercent, target(func(t *result.Target) (float64, string) { return t.CPUMaxPct, "" })
	case "target_cpu_avg":
		m.kind, m.get = kindPercent, target(func(t *result.Target) (float64, string) { return t.CPUAvgPct, "" })
	case "target_rss_max":
		m.kind, m.get = kindBytes, target(func(t *result.Target) (float64, string) {
			if t.RSSMaxBytes <= 0 {
				return 0, "the target's memory was not sampled"
			}
			return float64(t.RSSMaxBytes), ""
		})
	default:
		return metric{}, false
	}
	return m, true
}

const classList = "http_<code>, http_5xx, timeout, conn_refused, conn_reset, dns, tls, pool_exhausted, aborted, response_too_large, bad_response, other"

// errorClass resolves errors.<class>: the taxonomy of docs/ARCHITECTURE.md ("Error taxonomy"), plus
// http_Nxx for a whole status family. Unknown classes are refused so that
// a typo never turns into a gate that always passes.
func errorClass(class string) (metric, *nameError) {
	off := len("errors.")
	switch {
	case class == result.ClassTimeout, class == result.ClassConnRefused, class == result.ClassConnReset,
		class == result.ClassDNS, class == result.ClassTLS, class == result.ClassPoolExhausted,
		class == result.ClassOther, class == result.ClassAborted, class == result.ClassTooLarge,
		class == result.ClassBadResponse:
	case isStatusClass(class, false):
	case isStatusClass(class, true):
		family := class[:len("http_")+1]
		return metric{name: "errors." + class, kind: kindCount, get: func(r *result.Result) (float64, string) {
			var n int64
			for c, v := range r.Errors {
				if isStatusClass(c, false) && strings.HasPrefix(c, family) {
					n += v
				}
			}
			return float64(n), ""
		}}, nil
	default:
		return metric{}, &nameError{off, fmt.Sprintf("unknown error class %q (want %s)", class, classList)}
	}
	return metric{name: "errors." + class, kind: kindCount, get: func(r *result.Result) (float64, string) {
		return float64(r.Errors[class]), ""
	}}, nil
}

// isStatusClass matches http_NNN (a status 100–599) or, with family,
// http_Nxx.
func isStatusClass(class string, family bool) bool {
	code, ok := strings.CutPrefix(class, "http_")
	if !ok || len(code) != 3 || code[0] < '1' || code[0] > '5' {
		return false
	}
	if family {
		return code[1:] == "xx"
	}
	return isDigit(code[1]) && isDigit(code[2])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
