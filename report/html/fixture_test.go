package html

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// sampleResult is a 60-second run at 100/s against a collector that
// slows down and fails in the middle of the run: every chart has
// something to draw.
func sampleResult(t testing.TB) *result.Result {
	return synthRun(t, 10, 1, 60)
}

// synthRun builds a result with real histograms: latencies around base
// ms, a slow patch with 503s and pool exhaustion from second 20 to 30.
func synthRun(t testing.TB, base float64, seed uint64, secs int) *result.Result {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	lat, svc := result.NewHistogram(), result.NewHistogram()
	start := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	res := &result.Result{
		Schema: result.Schema,
		Tool:   result.Tool{Name: "vesload", Version: "v1.0.0"},
		Config: result.RunConfig{
			URL: "https://sample1:s3cr3t@collector.example:8443/eventListener/v7", Method: "POST",
			RPS: 100, DurationS: float64(secs), Shape: "constant", Pool: 16, TimeoutS: 10, KeepAlive: true,
			Profile: "onap-100rps", Event: "fault", EventSize: 1024,
			Headers: map[string]string{"X-Auth-Token": "tok3n", "X-Trace": "on"},
			User:    "sample1", Auth: "basic",
			Thresholds: []string{"p99<100ms", "error_rate<0.1%"},
		},
		Started:   start,
		Ended:     start.Add(time.Duration(secs) * time.Second),
		DurationS: float64(secs),
		Errors:    map[string]int64{},
		RPS:       result.Rate{Target: 100},
		Target:    &result.Target{Source: "metrics:https://admin:hunter2@collector.example/actuator/prometheus"},
		Generator: result.Generator{CPUAvgPct: 3, CPUMaxPct: 6, RSSMaxBytes: 40 << 20, DispatchLagP50Ms: 0.02, DispatchLagP99Ms: 0.3, DispatchLagMaxMs: 1.5, MaxInFlight: 16},
	}
	for sec := range secs {
		s := result.Second{T: int64(sec), Scheduled: 100}
		slow := sec >= 20 && sec < 30
		perSec := result.NewHistogram()
		for range 100 {
			ms := base * (0.6 + 0.4*rng.ExpFloat64())
			if slow {
				ms *= 3
			}
			us := int64(ms * 1000)
			_ = lat.RecordValue(us)
			_ = svc.RecordValue(us * 9 / 10)
			_ = perSec.RecordValue(us)
		}
		s.Sent, s.OK = 100, 100
		if slow {
			s.ErrorsByClass = map[string]int64{"http_503": int64(2 + sec%3), "pool_exhausted": int64(sec % 2)}
			s.PoolExhausted = s.ErrorsByClass["pool_exhausted"]
			s.Sent -= s.PoolExhausted
			s.Errors = s.ErrorsByClass["http_503"] + s.PoolExhausted
			s.OK = 100 - s.Errors
		}
		for k, v := range s.ErrorsByClass {
			res.Errors[k] += v
		}
		s.P50Ms = float64(perSec.ValueAtQuantile(50)) / 1000
		s.P99Ms = float64(perSec.ValueAtQuantile(99)) / 1000
		s.MaxMs = float64(perSec.Max()) / 1000
		s.TargetCPUPct = 35 + 10*math.Sin(float64(sec)/6)
		if slow {
			s.TargetCPUPct = 92
		}
		s.GenCPUPct = 3 + float64(sec%4)
		s.GenRSSBytes = int64(38+sec%3) << 20
		s.TargetRSSBytes = int64(600+sec) << 20
		s.InFlight = int64(2 + sec%3)
		if slow {
			s.InFlight = 16
		}
		res.Requests.Scheduled += s.Scheduled
		res.Requests.Sent += s.Sent
		res.Requests.OK += s.OK
		res.Requests.Errors += s.Errors
		res.Timeline = append(res.Timeline, s)
	}
	res.MessageIDs = map[string]int64{"SVC2000": res.Errors["http_503"]}
	res.RPS.Achieved = float64(res.Requests.Sent) / float64(secs)
	res.Latency, res.Service = result.Summarize(lat), result.Summarize(svc)
	res.Target.CPUAvgPct, res.Target.CPUMaxPct, res.Target.RSSMaxBytes = 45, 92, 700<<20
	var err error
	if res.Histograms.Latency, err = result.EncodeHistogram(lat); err != nil {
		t.Fatal(err)
	}
	if res.Histograms.Service, err = result.EncodeHistogram(svc); err != nil {
		t.Fatal(err)
	}
	res.Thresholds = []result.Threshold{
		{Expr: "p99<100ms", Value: res.Latency.P99, Unit: "ms", Pass: res.Latency.P99 < 100},
		{Expr: "error_rate<0.1%", Value: 100 * float64(res.Requests.Errors) / float64(res.Requests.Scheduled), Unit: "%", Pass: false},
	}
	res.Warnings = []string{"35 requests could not get a connection within the pool wait (pool_exhausted)"}
	return res
}
