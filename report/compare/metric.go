package compare

import (
	"github.com/vesload/vesload/report/result"
)

// metric is one row of the comparison: how to read it off a result and
// which way it improves.
type metric struct {
	name    string // field name in the result document
	label   string // human name with unit
	better  Direction
	get     func(*result.Result) (float64, bool)
	missing string // why a run may lack it, after the run's name
}

// metrics lists the rows in the order the seed tables use: latency
// first, then errors, throughput and the target's CPU.
func metrics() []metric {
	lat := func(f func(result.Summary) float64) func(*result.Result) (float64, bool) {
		return func(r *result.Result) (float64, bool) { return f(r.Latency), recorded(r.Latency) }
	}
	cpu := func(f func(*result.Target) float64) func(*result.Result) (float64, bool) {
		return func(r *result.Result) (float64, bool) {
			if r.Target == nil {
				return 0, false
			}
			return f(r.Target), true
		}
	}
	const noLatency = "recorded no latency"
	return append([]metric{
		{"latency_ms.avg", "avg latency (ms)", LowerIsBetter, lat(func(s result.Summary) float64 { return s.Avg }), noLatency},
		{"latency_ms.max", "max latency (ms)", LowerIsBetter, lat(func(s result.Summary) float64 { return s.Max }), noLatency},
		{"latency_ms.p50", "p50 latency (ms)", LowerIsBetter, lat(func(s result.Summary) float64 { return s.P50 }), noLatency},
		{"latency_ms.p95", "p95 latency (ms)", LowerIsBetter, lat(func(s result.Summary) float64 { return s.P95 }), noLatency},
		{"latency_ms.p99", "p99 latency (ms)", LowerIsBetter, lat(func(s result.Summary) float64 { return s.P99 }), noLatency},
		{"service_ms.p99", "p99 service time (ms)", LowerIsBetter, func(r *result.Result) (float64, bool) {
			return r.Service.P99, recorded(r.Service)
		}, "recorded no service time"},
		{"error_rate", "error rate (%)", LowerIsBetter, (*result.Result).ErrorRatePct, "attempted no request"},
		{"rps.achieved", "achieved rate (/s)", HigherIsBetter, func(r *result.Result) (float64, bool) {
			return r.RPS.Achieved, true
		}, ""},
		{"target.cpu_avg_pct", "target CPU avg (%)", LowerIsBetter, cpu(func(t *result.Target) float64 { return t.CPUAvgPct }), "did not sample the target"},
		{"target.cpu_max_pct", "target CPU max (%)", LowerIsBetter, cpu(func(t *result.Target) float64 { return t.CPUMaxPct }), "did not sample the target"},
	}, append(hvMetrics(), deliveryMetrics()...)...)
}

// hvMetrics are the HV-VES rows: runs without an hv section lack them and
// a comparison of REST runs leaves them out.
func hvMetrics() []metric {
	hv := func(f func(*result.HV) float64) func(*result.Result) (float64, bool) {
		return func(r *result.Result) (float64, bool) {
			if r.HV == nil {
				return 0, false
			}
			return f(r.HV), true
		}
	}
	return []metric{
		{"hv.peak_mbps", "HV-VES peak data rate (MB/s)", HigherIsBetter, hv(func(h *result.HV) float64 { return h.PeakMBps }), "is not an HV-VES run"},
		{"hv.mbps", "HV-VES average data rate (MB/s)", HigherIsBetter, hv(func(h *result.HV) float64 { return h.MBps }), "is not an HV-VES run"},
		{"hv.receiver.lost", "HV-VES messages lost", LowerIsBetter, func(r *result.Result) (float64, bool) {
			if r.HV == nil || r.HV.Receiver == nil {
				return 0, false
			}
			return float64(r.HV.Receiver.Lost), true
		}, "did not observe the receiver"},
	}
}

// recorded tells a recorded distribution from an absent one.
func recorded(s result.Summary) bool { return s.Count > 0 || s.Max > 0 }
