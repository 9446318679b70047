package metrics

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/sample"
)

// TestObserverFeedsTheExporter: the engine's events reach the series,
// and a second without readings leaves the target's alone.
func TestObserverFeedsTheExporter(t *testing.T) {
	e := New()
	o := Observer{Exporter: e}
	o.Request(&loadgen.RequestEvent{Outcome: "ok", Code: 202, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond})
	o.Second(&loadgen.Progress{InFlight: 4, TargetRPS: 100, RPS: 99, LagP99: time.Millisecond,
		Target: &sample.Reading{CPUPct: 40, RSSBytes: 1 << 20}})
	o.Second(&loadgen.Progress{InFlight: 5, TargetRPS: 100, RPS: 98})
	fams := scrape(t, e.Handler())
	tests := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"vesload_requests_total", map[string]string{"outcome": "ok", "code": "202"}, 1},
		{"vesload_in_flight", nil, 5},
		{"vesload_achieved_rps", nil, 98},
		{"vesload_dispatch_lag_seconds", map[string]string{"quantile": "0.99"}, 0},
		{"vesload_target_cpu_percent", nil, 40},
	}
	for _, tt := range tests {
		if got := value(t, fams, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
	allocs := testing.AllocsPerRun(100, func() { o.Request(&loadgen.RequestEvent{Outcome: "ok", Code: 202}) })
	if allocs != 0 {
		t.Errorf("Request allocates %v times, want 0", allocs)
	}
}
