package report

import (
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// sampleHistograms builds a deterministic pair of distributions in
// microseconds: service time around 2–5 ms with a slow tail, and latency
// from the due time that adds a small dispatch delay to every request and
// a 25 ms wait for a connection to one request in a hundred.
func sampleHistograms(t testing.TB) (lat, svc *hdrhistogram.Histogram) {
	t.Helper()
	lat, svc = result.NewHistogram(), result.NewHistogram()
	for i := int64(0); i < 10000; i++ {
		s := 2000 + (i*7919)%3000
		if i%500 == 0 {
			s = 40000 + (i/500)*2500
		}
		l := s + (i%7)*50
		if i%100 == 0 {
			l += 25000
		}
		if err := svc.RecordValue(s); err != nil {
			t.Fatal(err)
		}
		if err := lat.RecordValue(l); err != nil {
			t.Fatal(err)
		}
	}
	return lat, svc
}

// sampleResult is a complete result as the engine would write it after a
// run against a collector with target sampling, thresholds and warnings.
func sampleResult(t testing.TB) *result.Result {
	t.Helper()
	lat, svc := sampleHistograms(t)
	latEnc, err := result.EncodeHistogram(lat)
	if err != nil {
		t.Fatal(err)
	}
	svcEnc, err := result.EncodeHistogram(svc)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	return &result.Result{
		Schema: result.Schema,
		Tool:   result.Tool{Name: "vesload", Version: "v0.9.0"},
		Config: result.RunConfig{
			URL: "https://sample1:s3cr3t@collector.example:8443/eventListener/v7", Method: "POST",
			RPS: 100, DurationS: 100, Shape: "constant", Pool: 16, TimeoutS: 10, KeepAlive: true,
			Profile: "onap-100rps", Event: "fault", EventSize: 1024,
			Thresholds: []string{"p99<100ms", "error_rate<0.1%", "target_cpu_max<80"},
		},
		Started:     start,
		Ended:       start.Add(100 * time.Second),
		DurationS:   100,
		Interrupted: false,
		Requests:    result.Requests{Scheduled: 10010, Sent: 10000, OK: 9880, Errors: 125, NotSent: 5},
		Errors:      map[string]int64{"http_503": 80, "http_500": 40, "pool_exhausted": 5},
		MessageIDs:  map[string]int64{"SVC2000": 40},
		RPS:         result.Rate{Target: 100, Achieved: 99.95},
		Latency:     result.Summarize(lat),
		Service:     result.Summarize(svc),
		Bytes:       result.Bytes{Sent: 10_240_000, Received: 123_456},
		Target: &result.Target{
			CPUAvgPct: 42.5, CPUMaxPct: 87.25, RSSMaxBytes: 512 << 20, Source: "pid:4242",
			Extra: map[string]result.SeriesStats{
				"jvm_threads":  {Avg: 61.2, Max: 64, Samples: 100},
				"gc_pause_sum": {Avg: 0.01234, Max: 0.5, Samples: 100},
			},
			SampleErrors: 2, LastError: "read /proc/4242/stat: no such process",
		},
		Generator: result.Generator{
			CPUAvgPct: 3.5, CPUMaxPct: 9, RSSMaxBytes: 48 << 20,
			DispatchLagP50Ms: 0.02, DispatchLagP99Ms: 0.35, DispatchLagMaxMs: 2.5,
			Saturated: true, MaxInFlight: 16,
		},
		Thresholds: []result.Threshold{
			{Expr: "p99<100ms", Value: result.Summarize(lat).P99, Unit: "ms", Pass: true},
			{Expr: "error_rate<0.1%", Value: 1.2493753123438281, Unit: "%", Pass: false},
			{Expr: "target_rss_max<1GiB", Value: 512 << 20, Unit: "B", Pass: true},
			{Expr: "dispatch_lag_p99 < 1ms", Reason: "no dispatch lag recorded", Unit: "ms", Pass: false},
		},
		Histograms: result.Histograms{Latency: latEnc, Service: svcEnc},
		Timeline: []result.Second{
			{T: 0, Scheduled: 100, Sent: 100, OK: 100, P50Ms: 3.1, P99Ms: 30.5, MaxMs: 42, TargetCPUPct: 35, TargetRSSBytes: 500 << 20, GenCPUPct: 3},
			{T: 1, Scheduled: 100, Sent: 98, OK: 90, Errors: 10, PoolExhausted: 2,
				ErrorsByClass: map[string]int64{"http_503": 8, "pool_exhausted": 2},
				P50Ms:         3.4, P99Ms: 61.25, MaxMs: 80.5, TargetCPUPct: 87.25, TargetRSSBytes: 512 << 20, GenCPUPct: 9},
			{T: 2, Scheduled: 100, Sent: 100, OK: 99, Errors: 1,
				ErrorsByClass: map[string]int64{"http_500": 1},
				P50Ms:         3.2, P99Ms: 28, MaxMs: 31, TargetCPUPct: 40, TargetRSSBytes: 510 << 20, GenCPUPct: 4},
		},
		Warnings: []string{
			"5 requests could not get a connection within the pool wait (pool_exhausted)",
			"the generator was saturated during 3 s of the run",
		},
	}
}

// emptyResult is a run that sent nothing: every renderer must still
// produce something sensible.
func emptyResult() *result.Result {
	return &result.Result{Schema: result.Schema, Config: result.RunConfig{URL: "http://127.0.0.1:8080/eventListener/v7", Emulator: true}}
}
