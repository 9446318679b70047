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
// distribution recorded nothing lacks them for the reason missing. opts
// adds to a statistic, by its name after the prefix, what only it has.
func distribution(prefix, what, missing string, of func(r *result.Result) result.Summary, opts map[string][]option) []Metric {
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
		ms = append(ms, declare(m, opts[st.name]...))
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
	const lacks = "recorded no latency"
	ms := distribution("", "the latency from the due time", noLatency, func(r *result.Result) result.Summary { return r.Latency },
		map[string][]option{
			"avg": {row(1, "latency_ms.avg", "avg latency (ms)", lacks), trend(1),
				second(added(whenAnswered("per-second mean", func(s result.Second) float64 { return s.AvgMs })))},
			"max": {row(2, "latency_ms.max", "max latency (ms)", lacks), trend(5),
				second(whenAnswered("per-second max", func(s result.Second) float64 { return s.MaxMs }))},
			"p50": {row(3, "latency_ms.p50", "p50 latency (ms)", lacks), trend(2),
				second(whenAnswered("per-second p50", func(s result.Second) float64 { return s.P50Ms }))},
			"p95": {row(4, "latency_ms.p95", "p95 latency (ms)", lacks), trend(3),
				second(added(whenAnswered("per-second p95", func(s result.Second) float64 { return s.P95Ms })))},
			"p99": {row(5, "latency_ms.p99", "p99 latency (ms)", lacks), trend(4),
				second(whenAnswered("per-second p99", func(s result.Second) float64 { return s.P99Ms }))},
		})
	ms = append(ms, distribution(servicePrefix, "the service time from the write", "no service time was recorded",
		func(r *result.Result) result.Summary { return r.Service },
		map[string][]option{"p99": {row(6, "service_ms.p99", "p99 service time (ms)", "recorded no service time")}})...)
	ms = append(ms, dispatchLag()...)
	ms = append(ms, errorMetrics()...)
	ms = append(ms, counts()...)
	return append(ms, resources()...)
}

// added marks a per-second figure the timeline gained in a later
// release.
func added(ps PerSecond) PerSecond {
	ps.Added = true
	return ps
}

// dispatchLag declares the generator's lateness in handing due requests
// to a connection.
func dispatchLag() []Metric {
	lag := func(name string, aliases []string, doc string, of func(g result.Generator) float64) Metric {
		m := Metric{Name: dispatchLagPrefix + name, Family: dispatchLagPrefix, Kind: Latency, Unit: "ms", Merge: Max, Worse: WorseUp, Sampled: true,
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
		declare(Metric{Name: "error_rate", Kind: Ratio, Unit: "%", Merge: Derived, Worse: WorseUp,
			Doc: "failed of the attempted requests, never-sent ones included, in percent",
			Read: func(r *result.Result) (float64, string) {
				if pct, ok := r.ErrorRatePct(); ok {
					return pct, ""
				}
				return 0, "no requests were attempted"
			}},
			row(7, "error_rate", "error rate (%)", "attempted no request"), trend(6),
			second(PerSecond{Label: "per-second error rate", Of: func(s result.Second) (float64, bool) {
				return 100 * float64(s.Errors) / float64(max(s.OK+s.Errors, 1)), answered(s)
			}})),
		declare(Metric{Name: "errors", Kind: Count, Merge: Sum, Worse: WorseUp, Doc: "failed requests, of every class",
			Read: func(r *result.Result) (float64, string) { return float64(r.Requests.Errors), "" }},
			second(everySecond("errors per second", func(s result.Second) float64 { return float64(s.Errors) }))),
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
	count := func(name, doc string, worse Direction, of func(q result.Requests) int64, opts ...option) Metric {
		return declare(Metric{Name: name, Kind: Count, Merge: Sum, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) { return float64(of(r.Requests)), "" }}, opts...)
	}
	sentPerSecond := everySecond("requests sent per second", func(s result.Second) float64 { return float64(s.Sent) })
	return []Metric{
		declare(Metric{Name: "rps", Kind: Rate, Unit: "/s", Merge: Sum, Worse: WorseDown, Doc: "requests sent per second of the run",
			Read: func(r *result.Result) (float64, string) { return r.RPS.Achieved, "" }},
			row(8, "rps.achieved", "achieved rate (/s)", ""), trend(7), second(sentPerSecond)),
		count("sent", "requests written to a connection", WorseDown, func(q result.Requests) int64 { return q.Sent }, second(sentPerSecond)),
		count("not_sent", "requests due but never written", WorseUp, func(q result.Requests) int64 { return q.NotSent }),
		count("scheduled", "requests due", WorseUp, func(q result.Requests) int64 { return q.Scheduled }),
		count(OK, "requests answered with an expected status", WorseDown, func(q result.Requests) int64 { return q.OK },
			second(everySecond("successes per second", func(s result.Second) float64 { return float64(s.OK) }))),
	}
}

// resources declares the target's and the generator's CPU and memory.
func resources() []Metric {
	target := func(name, doc string, kind Kind, merge Merge, of func(t *result.Target) (float64, string), opts ...option) Metric {
		return declare(Metric{Name: name, Kind: kind, Unit: unitOf(kind), Merge: merge, Worse: WorseUp, Doc: doc, Sampled: true,
			Read: func(r *result.Result) (float64, string) {
				if r.Target == nil {
					return 0, noTarget
				}
				return of(r.Target)
			}}, opts...)
	}
	gen := func(name, doc string, kind Kind, of func(g result.Generator) float64, opts ...option) Metric {
		return declare(Metric{Name: name, Kind: kind, Unit: unitOf(kind), Merge: Max, Worse: WorseUp, Doc: doc, Sampled: true,
			Read: func(r *result.Result) (float64, string) { return of(r.Generator), "" }}, opts...)
	}
	targetCPU := everySecond("per-second target CPU", func(s result.Second) float64 { return s.TargetCPUPct })
	targetCPU.Carried = func(r *result.Result) string {
		if r.Target == nil {
			return "target was not sampled (--target-pid or --target-metrics)"
		}
		return ""
	}
	genCPU := everySecond("per-second generator CPU", func(s result.Second) float64 { return s.GenCPUPct })
	return []Metric{
		target("target_cpu_max", "the target's highest CPU of a sample", Percent, Max,
			func(t *result.Target) (float64, string) { return t.CPUMaxPct, "" },
			row(10, "target.cpu_max_pct", "target CPU max (%)", notSampledTarget), second(targetCPU)),
		target("target_cpu_avg", "the target's mean CPU", Percent, Mean,
			func(t *result.Target) (float64, string) { return t.CPUAvgPct, "" },
			row(9, "target.cpu_avg_pct", "target CPU avg (%)", notSampledTarget), trend(8), second(targetCPU)),
		target("target_rss_max", "the target's largest resident memory", Bytes, Max, func(t *result.Target) (float64, string) {
			if t.RSSMaxBytes <= 0 {
				return 0, "the target's memory was not sampled"
			}
			return float64(t.RSSMaxBytes), ""
		}, trend(9)),
		gen("generator_cpu_max", "vesload's highest CPU of a sample", Percent, func(g result.Generator) float64 { return g.CPUMaxPct },
			second(genCPU)),
		gen("generator_cpu_avg", "vesload's mean CPU", Percent, func(g result.Generator) float64 { return g.CPUAvgPct },
			trend(10), second(genCPU)),
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
