package compare

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// runSpec describes a synthetic run: its latencies are drawn from a fixed
// log-normal-ish shape around base milliseconds, scaled by jitter (the
// run-to-run variation), from a generator seeded with seed.
type runSpec struct {
	base     float64 // ms, the median of the shape
	jitter   float64 // multiplies every latency of the run
	seed     uint64
	errors   int64
	cpu      float64 // target CPU avg; 0: not sampled
	requests int
}

// synth builds a complete result for spec with real HDR histograms, as
// the engine would write it.
func synth(t testing.TB, s runSpec) *result.Result {
	t.Helper()
	if s.requests == 0 {
		s.requests = 1000
	}
	if s.jitter == 0 {
		s.jitter = 1
	}
	rng := rand.New(rand.NewPCG(s.seed, 42))
	lat, svc := result.NewHistogram(), result.NewHistogram()
	for range s.requests {
		// Exponential tail over a floor: a typical latency shape.
		ms := s.base * s.jitter * (0.6 + 0.4*rng.ExpFloat64())
		svcUs := int64(ms * 1000 * 0.9)
		if err := svc.RecordValue(max(svcUs, 1)); err != nil {
			t.Fatal(err)
		}
		if err := lat.RecordValue(max(int64(ms*1000), 1)); err != nil {
			t.Fatal(err)
		}
	}
	latEnc, err := result.EncodeHistogram(lat)
	if err != nil {
		t.Fatal(err)
	}
	svcEnc, err := result.EncodeHistogram(svc)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(s.requests)
	start := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC).Add(time.Duration(s.seed) * time.Hour)
	r := &result.Result{
		Schema: result.Schema,
		Tool:   result.Tool{Name: "vesload", Version: "v1.0.0"},
		Config: result.RunConfig{
			URL: "http://collector-a:8080/eventListener/v7", Method: "POST",
			RPS: 100, DurationS: 30, Pool: 16, Event: "fault",
		},
		Started:   start,
		Ended:     start.Add(30 * time.Second),
		DurationS: 30,
		Requests:  result.Requests{Scheduled: n, Sent: n, OK: n - s.errors, Errors: s.errors},
		Errors:    map[string]int64{},
		RPS:       result.Rate{Target: 100, Achieved: 100 - float64(s.seed%3)*0.01},
		Latency:   result.Summarize(lat),
		Service:   result.Summarize(svc),
		Histograms: result.Histograms{
			Latency: latEnc,
			Service: svcEnc,
		},
	}
	if s.errors > 0 {
		r.Errors["http_503"] = s.errors
	}
	if s.cpu > 0 {
		r.Target = &result.Target{CPUAvgPct: s.cpu, CPUMaxPct: s.cpu * 1.5, Source: "pid:1"}
	}
	return r
}

// side builds runs of one build: base latency, with the given per-run
// jitters, seeds starting at seed0.
func side(t testing.TB, base float64, seed0 uint64, jitters ...float64) []*result.Result {
	t.Helper()
	out := make([]*result.Result, len(jitters))
	for i, j := range jitters {
		out[i] = synth(t, runSpec{base: base, jitter: j, seed: seed0 + uint64(i), cpu: 40 + 2*j})
	}
	return out
}

// rowOf finds a row by metric name.
func rowOf(t testing.TB, c *Comparison, metric string) Row {
	t.Helper()
	for _, r := range c.Rows {
		if r.Metric == metric {
			return r
		}
	}
	t.Fatalf("no row %q in %v", metric, metricNames(c))
	return Row{}
}

func metricNames(c *Comparison) []string {
	var out []string
	for _, r := range c.Rows {
		out = append(out, r.Metric)
	}
	return out
}
