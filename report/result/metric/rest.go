package metric

import (
	"strings"

	"github.com/vesload/vesload/report/result"
)

// Names of the engine's metrics that other packages hold a run to.
const (
	// Avg is the mean latency, which compare's gates also call "mean".
	Avg = "avg"
	// OK is the number of requests that succeeded: the verdict's first
	// built-in rule holds a run to ok>0.
	OK = "ok"
)

const (
	servicePrefix     = "service_"
	dispatchLagPrefix = "dispatch_lag_"
	errorsPrefix      = "errors."
	statWant          = "avg, min, max, p50, p90, p95, p99, p999 or p(99.9)"
	noLatency         = "no latency was recorded"
	noTarget          = "the target was not sampled"
	notSampledTarget  = "did not sample the target"
)

// stat is one statistic of a latency distribution: its name after the
// family's prefix, its other spellings and how it is read off a Summary.
type stat struct {
	name    string
	aliases []string
	of      func(s result.Summary) float64
	doc     string
}

// stats are the statistics a latency distribution is gated on, in the
// order lists show them.
func stats() []stat {
	return []stat{
		{"avg", nil, func(s result.Summary) float64 { return s.Avg }, "mean"},
		{"min", nil, func(s result.Summary) float64 { return s.Min }, "minimum"},
		{"max", nil, func(s result.Summary) float64 { return s.Max }, "maximum"},
		{"p50", []string{"p(50)"}, func(s result.Summary) float64 { return s.P50 }, "median"},
		{"p90", []string{"p(90)"}, func(s result.Summary) float64 { return s.P90 }, "90th percentile"},
		{"p95", []string{"p(95)"}, func(s result.Summary) float64 { return s.P95 }, "95th percentile"},
		{"p99", []string{"p(99)"}, func(s result.Summary) float64 { return s.P99 }, "99th percentile"},
		{"p999", []string{"p(999)", "p99.9", "p(99.9)"}, func(s result.Summary) float64 { return s.P999 }, "99.9th percentile"},
	}
}

// distribution declares the statistics of one latency distribution
// under prefix; of picks it off a result, and a result whose
// distribution recorded nothing lacks them for the reason missing.
func distribution(prefix, what, missing string, of func(r *result.Result) result.Summary) []Metric {
	var ms []Metric
	for _, st := range stats() {
		read := st.of
		m := Metric{Name: prefix + st.name, Family: prefix, Kind: Latency, Unit: "ms", Merge: Histogram, Worse: WorseUp,
			Doc: st.doc + " of " + what,
			Read: func(r *result.Result) (float64, string) {
				s := of(r)
				if s.Count == 0 && s.Max == 0 {
					return 0, missing
				}
				return read(s), ""
			}}
		for _, a := range st.aliases {
			m.Aliases = append(m.Aliases, prefix+a)
		}
		ms = append(ms, m)
	}
	return ms
}

// statFamily is a family of latency statistics.
func statFamily(prefix, spelling string) Family {
	return Family{Prefix: prefix, Spelling: spelling, Noun: "statistic", Want: statWant}
}

// rest declares the engine's own metrics: every protocol's requests go
// through it, so REST runs and HV-VES runs alike have them.
func rest() []Metric {
	ms := distribution("", "the latency from the due time", noLatency, func(r *result.Result) result.Summary { return r.Latency })
	ms = append(ms, distribution(servicePrefix, "the service time from the write", "no service time was recorded",
		func(r *result.Result) result.Summary { return r.Service })...)
	ms = append(ms, dispatchLag()...)
	ms = append(ms, errorMetrics()...)
	ms = append(ms, counts()...)
	ms = append(ms, resources()...)
	return compareREST(ms)
}

// compareREST marks the engine's rows of compare's table, a history's
// default series and the figures the timeline carries per second.
func compareREST(ms []Metric) []Metric {
	answered := func(s result.Second) bool { return s.OK+s.Errors > 0 }
	latency := func(label string, of func(s result.Second) float64) *PerSecond {
		return &PerSecond{Label: label, Of: func(s result.Second) (float64, bool) { return of(s), answered(s) }}
	}
	always := func(label string, of func(s result.Second) float64) *PerSecond {
		return &PerSecond{Label: label, Of: func(s result.Second) (float64, bool) { return of(s), true }}
	}
	sampled := func(r *result.Result) string {
		if r.Target == nil {
			return "target was not sampled (--target-pid or --target-metrics)"
		}
		return ""
	}
	const (
		noLatencyRecorded = "recorded no latency"
	)
	for i := range ms {
		m := &ms[i]
		switch m.Name {
		case "avg":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 1, "latency_ms.avg", "avg latency (ms)", noLatencyRecorded, 1
			m.Second = latency("per-second mean", func(s result.Second) float64 { return s.AvgMs })
			m.Second.Added = true
		case "max":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 2, "latency_ms.max", "max latency (ms)", noLatencyRecorded, 5
			m.Second = latency("per-second max", func(s result.Second) float64 { return s.MaxMs })
		case "p50":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 3, "latency_ms.p50", "p50 latency (ms)", noLatencyRecorded, 2
			m.Second = latency("per-second p50", func(s result.Second) float64 { return s.P50Ms })
		case "p95":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 4, "latency_ms.p95", "p95 latency (ms)", noLatencyRecorded, 3
			m.Second = latency("per-second p95", func(s result.Second) float64 { return s.P95Ms })
			m.Second.Added = true
		case "p99":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 5, "latency_ms.p99", "p99 latency (ms)", noLatencyRecorded, 4
			m.Second = latency("per-second p99", func(s result.Second) float64 { return s.P99Ms })
		case servicePrefix + "p99":
			m.Row, m.Field, m.Label, m.Lacks = 6, "service_ms.p99", "p99 service time (ms)", "recorded no service time"
		case "error_rate":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 7, "error_rate", "error rate (%)", "attempted no request", 6
			m.Second = &PerSecond{Label: "per-second error rate", Of: func(s result.Second) (float64, bool) {
				return 100 * float64(s.Errors) / float64(max(s.OK+s.Errors, 1)), answered(s)
			}}
		case "errors":
			m.Second = always("errors per second", func(s result.Second) float64 { return float64(s.Errors) })
		case "rps":
			m.Row, m.Field, m.Label, m.Trend = 8, "rps.achieved", "achieved rate (/s)", 7
			m.Second = always("requests sent per second", func(s result.Second) float64 { return float64(s.Sent) })
		case "sent":
			m.Second = always("requests sent per second", func(s result.Second) float64 { return float64(s.Sent) })
		case OK:
			m.Second = always("successes per second", func(s result.Second) float64 { return float64(s.OK) })
		case "target_cpu_avg":
			m.Row, m.Field, m.Label, m.Lacks, m.Trend = 9, "target.cpu_avg_pct", "target CPU avg (%)", notSampledTarget, 8
			m.Second = always("per-second target CPU", func(s result.Second) float64 { return s.TargetCPUPct })
			m.Second.Carried = sampled
		case "target_cpu_max":
			m.Row, m.Field, m.Label, m.Lacks = 10, "target.cpu_max_pct", "target CPU max (%)", notSampledTarget
			m.Second = always("per-second target CPU", func(s result.Second) float64 { return s.TargetCPUPct })
			m.Second.Carried = sampled
		case "target_rss_max":
			m.Trend = 9
		case "generator_cpu_avg":
			m.Trend = 10
			m.Second = always("per-second generator CPU", func(s result.Second) float64 { return s.GenCPUPct })
		case "generator_cpu_max":
			m.Second = always("per-second generator CPU", func(s result.Second) float64 { return s.GenCPUPct })
		}
	}
	return ms
}

// dispatchLag declares the generator's lateness in handing due requests
// to a connection.
func dispatchLag() []Metric {
	lag := func(name string, aliases []string, doc string, of func(g result.Generator) float64) Metric {
		m := Metric{Name: dispatchLagPrefix + name, Family: dispatchLagPrefix, Kind: Latency, Unit: "ms", Merge: Max, Worse: WorseUp,
			Doc:  doc + " of the dispatcher's lateness behind the due time",
			Read: func(r *result.Result) (float64, string) { return of(r.Generator), "" }}
		for _, a := range aliases {
			m.Aliases = append(m.Aliases, dispatchLagPrefix+a)
		}
		return m
	}
	return []Metric{
		lag("p50", []string{"p(50)"}, "median", func(g result.Generator) float64 { return g.DispatchLagP50Ms }),
		lag("p99", []string{"p(99)"}, "99th percentile", func(g result.Generator) float64 { return g.DispatchLagP99Ms }),
		lag("max", nil, "maximum", func(g result.Generator) float64 { return g.DispatchLagMaxMs }),
	}
}

// dispatchLagFamily names the dispatch lag's statistics.
func dispatchLagFamily() Family {
	return Family{Prefix: dispatchLagPrefix, Spelling: "dispatch_lag_*", Noun: "statistic", Want: "p50, p99 or max"}
}

// errorMetrics declares the error rate, the errors and one count per
// class of the taxonomy (docs/ARCHITECTURE.md, "Error taxonomy").
func errorMetrics() []Metric {
	ms := []Metric{
		{Name: "error_rate", Kind: Ratio, Unit: "%", Merge: Derived, Worse: WorseUp,
			Doc: "failed of the attempted requests, never-sent ones included, in percent",
			Read: func(r *result.Result) (float64, string) {
				if pct, ok := r.ErrorRatePct(); ok {
					return pct, ""
				}
				return 0, "no requests were attempted"
			}},
		{Name: "errors", Kind: Count, Merge: Sum, Worse: WorseUp, Doc: "failed requests, of every class",
			Read: func(r *result.Result) (float64, string) { return float64(r.Requests.Errors), "" }},
	}
	for _, class := range classes() {
		ms = append(ms, errorClass(class, "failures of class "+class, func(r *result.Result) float64 { return float64(r.Errors[class]) }))
	}
	return ms
}

// classes are the fixed classes of the taxonomy, in the order lists
// show them.
func classes() []string {
	return []string{result.ClassTimeout, result.ClassConnRefused, result.ClassConnReset, result.ClassDNS, result.ClassTLS,
		result.ClassPoolExhausted, result.ClassAborted, result.ClassTooLarge, result.ClassBadResponse, result.ClassOther}
}

func errorClass(class, doc string, of func(r *result.Result) float64) Metric {
	return Metric{Name: errorsPrefix + class, Family: errorsPrefix, Kind: Count, Merge: Sum, Worse: WorseUp, Doc: doc,
		Read: func(r *result.Result) (float64, string) { return of(r), "" }}
}

// errorFamily names the classes, the status codes among them.
func errorFamily() Family {
	return Family{Prefix: errorsPrefix, Spelling: "errors.<class>", Noun: "error class",
		Want: "http_<code>, http_5xx, " + members(errorMetrics(), errorsPrefix, false)}
}

// statusClass declares errors.http_NNN (a status 100–599) and
// errors.http_Nxx (a whole family of statuses) on demand: they are a
// pattern, not a list.
func statusClass(name string) (Metric, bool) {
	class, ok := strings.CutPrefix(name, errorsPrefix)
	if !ok {
		return Metric{}, false
	}
	switch {
	case isStatusClass(class, false):
		return errorClass(class, "failures with HTTP status "+class[len("http_"):],
			func(r *result.Result) float64 { return float64(r.Errors[class]) }), true
	case isStatusClass(class, true):
		family := class[:len("http_")+1]
		return errorClass(class, "failures with an HTTP status "+class[len("http_"):], func(r *result.Result) float64 {
			var n int64
			for c, v := range r.Errors {
				if isStatusClass(c, false) && strings.HasPrefix(c, family) {
					n += v
				}
			}
			return float64(n)
		}), true
	}
	return Metric{}, false
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

// counts declares the achieved rate and the request counts.
func counts() []Metric {
	count := func(name, doc string, worse Direction, of func(q result.Requests) int64) Metric {
		return Metric{Name: name, Kind: Count, Merge: Sum, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) { return float64(of(r.Requests)), "" }}
	}
	return []Metric{
		{Name: "rps", Kind: Rate, Unit: "/s", Merge: Sum, Worse: WorseDown, Doc: "requests sent per second of the run",
			Read: func(r *result.Result) (float64, string) { return r.RPS.Achieved, "" }},
		count("sent", "requests written to a connection", WorseDown, func(q result.Requests) int64 { return q.Sent }),
		count("not_sent", "requests due but never written", WorseUp, func(q result.Requests) int64 { return q.NotSent }),
		count("scheduled", "requests due", WorseUp, func(q result.Requests) int64 { return q.Scheduled }),
		count(OK, "requests answered with an expected status", WorseDown, func(q result.Requests) int64 { return q.OK }),
	}
}

// resources declares the target's and the generator's CPU and memory.
func resources() []Metric {
	target := func(name, doc string, kind Kind, merge Merge, of func(t *result.Target) (float64, string)) Metric {
		return Metric{Name: name, Kind: kind, Unit: unitOf(kind), Merge: merge, Worse: WorseUp, Doc: doc,
			Read: func(r *result.Result) (float64, string) {
				if r.Target == nil {
					return 0, noTarget
				}
				return of(r.Target)
			}}
	}
	gen := func(name, doc string, kind Kind, of func(g result.Generator) float64) Metric {
		return Metric{Name: name, Kind: kind, Unit: unitOf(kind), Merge: Max, Worse: WorseUp, Doc: doc,
			Read: func(r *result.Result) (float64, string) { return of(r.Generator), "" }}
	}
	return []Metric{
		target("target_cpu_max", "the target's highest CPU of a sample", Percent, Max,
			func(t *result.Target) (float64, string) { return t.CPUMaxPct, "" }),
		target("target_cpu_avg", "the target's mean CPU", Percent, Mean,
			func(t *result.Target) (float64, string) { return t.CPUAvgPct, "" }),
		target("target_rss_max", "the target's largest resident memory", Bytes, Max, func(t *result.Target) (float64, string) {
			if t.RSSMaxBytes <= 0 {
				return 0, "the target's memory was not sampled"
			}
			return float64(t.RSSMaxBytes), ""
		}),
		gen("generator_cpu_max", "vesload's highest CPU of a sample", Percent, func(g result.Generator) float64 { return g.CPUMaxPct }),
		gen("generator_cpu_avg", "vesload's mean CPU", Percent, func(g result.Generator) float64 { return g.CPUAvgPct }),
		gen("generator_rss_max", "vesload's largest resident memory", Bytes, func(g result.Generator) float64 { return float64(g.RSSMaxBytes) }),
	}
}

// unitOf is the unit a kind of figure is read in.
func unitOf(k Kind) string {
	switch k {
	case Latency:
		return "ms"
	case Percent, Ratio:
		return "%"
	case Bytes:
		return "B"
	case Rate:
		return "/s"
	}
	return ""
}
