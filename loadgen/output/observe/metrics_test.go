package observe

import (
	"fmt"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/metrics"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// TestObserverFeedsTheExporter: the engine's events reach the series,
// and a second without readings leaves the target's alone.
func TestObserverFeedsTheExporter(t *testing.T) {
	e := metrics.New()
	o := Metrics{Exporter: e}
	o.Request(&engine.RequestEvent{Outcome: "ok", Code: 202, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond})
	if got := scrapeValue(t, e, "vesload_request_latency_seconds", nil); got != 0 {
		t.Errorf("a request reached the latency histogram (%v) before its second was final", got)
	}
	sec := result.NewSecondTally()
	for range 2 {
		sec.Add(result.Outcome{Class: result.OutcomeOK, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond})
	}
	o.Timeline(result.Second{T: 0, OK: 2}, &sec)
	o.Second(&engine.Progress{InFlight: 4, TargetRPS: 100, RPS: 99, LagP99: time.Millisecond,
		Target: &sample.Reading{CPUPct: 40, RSSBytes: 1 << 20}})
	o.Second(&engine.Progress{InFlight: 5, TargetRPS: 100, RPS: 98})
	tests := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"vesload_requests_total", map[string]string{"outcome": "ok", "code": "202"}, 1},
		{"vesload_request_latency_seconds", nil, 2},
		{"vesload_request_service_seconds", nil, 2},
		{"vesload_in_flight", nil, 5},
		{"vesload_achieved_rps", nil, 98},
		{"vesload_dispatch_lag_seconds", map[string]string{"stat": "p99"}, 0},
		{"vesload_target_cpu_percent", nil, 40},
	}
	for _, tt := range tests {
		if got := scrapeValue(t, e, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
	allocs := testing.AllocsPerRun(100, func() { o.Request(&engine.RequestEvent{Outcome: "ok", Code: 202}) })
	if allocs != 0 {
		t.Errorf("Request allocates %v times, want 0", allocs)
	}
}

// scrapeValue is the value of the series name with exactly labels, from
// the exporter's registry: a counter's or gauge's value, a summary's
// quantile given as the "quantile" label, a histogram's count.
func scrapeValue(t *testing.T, e *metrics.Exporter, name string, labels map[string]string) float64 {
	t.Helper()
	fams, err := e.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	q, quantile := labels["quantile"]
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	metric:
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) != len(labels) && !quantile {
				continue
			}
			for _, l := range m.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue metric
				}
			}
			switch {
			case m.GetCounter() != nil:
				return m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				return m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				return float64(m.GetHistogram().GetSampleCount())
			case m.GetSummary() != nil:
				for _, sq := range m.GetSummary().GetQuantile() {
					if fmt.Sprint(sq.GetQuantile()) == q {
						return sq.GetValue()
					}
				}
			}
		}
	}
	t.Errorf("no %s%v", name, labels)
	return 0
}
