// Package reporttest holds the results that the tests of report and the
// rooms beside it render, merge and compare: one complete run, an empty
// one, an HV-VES one, each built the same way every time so that golden
// files stay put. Only tests import it.
package reporttest

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// Histograms builds a deterministic pair of distributions in
// microseconds: service time around 2–5 ms with a slow tail, and latency
// from the due time that adds a small dispatch delay to every request and
// a 25 ms wait for a connection to one request in a hundred.
func Histograms(t testing.TB) (lat, svc *hdrhistogram.Histogram) {
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

// Sample is a complete result as the engine would write it after a
// run against a collector with target sampling, thresholds and warnings.
func Sample(t testing.TB) *result.Result {
	t.Helper()
	lat, svc := Histograms(t)
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

// Empty is a run that sent nothing: every renderer must still
// produce something sensible.
func Empty() *result.Result {
	return &result.Result{Schema: result.Schema, Config: result.RunConfig{URL: "http://127.0.0.1:8080/eventListener/v7", Emulator: true}}
}

// HV is a 2-producer HV-VES run with a reconnect and an observed
// receiver.
func HV(t testing.TB) *result.Result {
	r := Sample(t)
	r.Config.Protocol = "hv-ves"
	r.Config.Shape = "2 producers × 1000 every 10ms"
	r.Config.Method, r.Config.URL = "", "tls://127.0.0.1:6061"
	r.HV = &result.HV{
		Addr: "127.0.0.1:6061", TLS: true, Producers: 2, Messages: 1000, SizeBytes: 8192, IntervalS: 0.01,
		Domain: "perf3gpp", Sent: result.HVCounts{Scheduled: 2000, Sent: 1990, Written: 1989, Failed: 1, NotSent: 10, Bytes: 1989 * 8204},
		NotSentBy: map[string]int64{"disconnected": 10}, MBps: 1.63, PeakMBps: 1.65,
		WriteBlocked: result.Summary{Count: 1989, P50: 0.02, P99: 0.3, Max: 2.5},
		Connect:      result.Summary{Count: 3, P50: 0.2, Max: 0.4}, Handshake: result.Summary{Count: 3, P50: 3.1, Max: 4.2},
		Connects: 3, Reconnects: 1, Disconnects: map[string]int64{"conn_reset": 1},
		ByProducer: []result.HVProducer{
			{Source: "vesload-hv-0", Counts: result.HVCounts{Scheduled: 1000, Sent: 1000, Written: 1000, Bytes: 1000 * 8204}},
			{Source: "vesload-hv-1", Counts: result.HVCounts{Scheduled: 1000, Sent: 990, Written: 989, Failed: 1, NotSent: 10, Bytes: 989 * 8204}, Reconnects: 1},
		},
		Receiver: &result.HVReceiver{Source: "emulator", Received: 1988, Accepted: 1988, Lost: 1, Duplicates: new(int64(0)), TravelAvgMs: 0.6,
			TravelP50Ms: 0.4, TravelP99Ms: 2.2, TravelMaxMs: 9.5},
	}
	return r
}

// Generator is Sample as one of several generators of a run: started
// offset later, its latencies 0.1 ms × scale … 100 ms × scale.
func Generator(t testing.TB, offset time.Duration, scale int64) *result.Result {
	t.Helper()
	r := Sample(t)
	r.Started = r.Started.Add(offset)
	r.Ended = r.Ended.Add(offset)
	lat := result.NewHistogram()
	for i := int64(1); i <= 1000; i++ {
		if err := lat.RecordValue(i * 100 * scale); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := result.EncodeHistogram(lat)
	if err != nil {
		t.Fatal(err)
	}
	r.Histograms.Latency, r.Latency = enc, result.Summarize(lat)
	return r
}

// Shard is shard i of n of the run with id run, a Generator of its own.
func Shard(t testing.TB, run string, i, n int) *result.Result {
	t.Helper()
	r := Generator(t, 0, int64(i+1))
	r.Config.RunID = run
	r.Config.Digest = "sha256:abc"
	r.Shard = &result.ShardInfo{Index: i, Count: n, StartAt: r.Started, StartOffsetMs: float64(i) / 10}
	return r
}

// WithDelivery gives r a delivery section of n events, their end-to-end
// latencies 1 ms × scale … n ms × scale, read with timestamps of tsType.
func WithDelivery(t testing.TB, r *result.Result, n, scale int64, tsType string) *result.Result {
	t.Helper()
	e2e, consumed := result.NewHistogram(), result.NewHistogram()
	for i := int64(1); i <= n; i++ {
		if err := e2e.RecordValue(i * 1000 * scale); err != nil {
			t.Fatal(err)
		}
		if err := consumed.RecordValue(i*1000*scale + 500); err != nil {
			t.Fatal(err)
		}
	}
	enc1, err := result.EncodeHistogram(e2e)
	if err != nil {
		t.Fatal(err)
	}
	enc2, err := result.EncodeHistogram(consumed)
	if err != nil {
		t.Fatal(err)
	}
	r.Delivery = &result.Delivery{Source: "kafka://k:9092/t", TimestampType: tsType, GraceS: 30,
		Expected: n + 5, Accepted: n + 3, Delivered: n, Lost: 5, LostThoughAccepted: 3, Duplicates: 1, Records: n + 2,
		Foreign: 1, LagMax: scale, E2E: result.Summarize(e2e), Consumed: result.Summarize(consumed),
		Histograms: result.DeliveryHistograms{E2E: enc1, Consumed: enc2},
		Timeline:   []result.DeliverySecond{{T: 0, Delivered: n, P99Ms: float64(scale), Lag: 1}}}
	return r
}

// TerminalSafe reports the first rune of out a terminal would obey, and
// false, when there is one: a control character but newline and tab, a
// byte that is not UTF-8, a C1 control, or a bidirectional override or
// isolate. The renderings' tests hold what they write from hostile result
// files to it.
func TerminalSafe(out string) (rune, bool) {
	for out != "" {
		r, n := utf8.DecodeRuneInString(out)
		out = out[n:]
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && n == 1 ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return r, false
		}
	}
	return 0, true
}

// CheckRenderingsEscaped runs each rendering of hostile input and fails t
// when one writes a rune a terminal would obey (TerminalSafe) or does not
// show the escapes of ESC and U+202E, which the hostile text carries.
func CheckRenderingsEscaped(t testing.TB, renders map[string]func(*bytes.Buffer) error) {
	t.Helper()
	for name, render := range renders {
		var w bytes.Buffer
		if err := render(&w); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r, ok := TerminalSafe(w.String()); !ok {
			t.Errorf("%s rendering writes %U raw:\n%s", name, r, w.String())
		}
		if !strings.Contains(w.String(), `\x1b`) || !strings.Contains(w.String(), `\u202e`) {
			t.Errorf("%s rendering does not show the escaped text:\n%s", name, w.String())
		}
	}
}
