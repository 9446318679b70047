package trend

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// benchMetrics are twelve figures of every run.
var benchMetrics = []string{"avg", "p50", "p90", "p95", "p99", "max", "service_p99", "error_rate", "rps",
	"target_cpu_avg", "target_rss_max", "generator_cpu_avg"}

// writeHistory writes n result files as a 60 s run at 100/s writes
// them (latency and service histograms, a timeline of every second, the
// target sampled), with p99 stepping up by 20 % at n/3 and back at
// 2n/3, and returns their paths.
func writeHistory(tb testing.TB, n int) []string {
	tb.Helper()
	rng := rand.New(rand.NewPCG(11, 11))
	lat, svc := result.NewHistogram(), result.NewHistogram()
	for range 6000 {
		ms := 20 * (0.6 + 0.4*rng.ExpFloat64())
		if err := lat.RecordValue(int64(ms * 1000)); err != nil {
			tb.Fatal(err)
		}
		if err := svc.RecordValue(int64(ms * 900)); err != nil {
			tb.Fatal(err)
		}
	}
	latEnc, err := result.EncodeHistogram(lat)
	if err != nil {
		tb.Fatal(err)
	}
	svcEnc, err := result.EncodeHistogram(svc)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	paths := make([]string, n)
	start := time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)
	for i := range n {
		level := 1.0
		if i >= n/3 && i < 2*n/3 {
			level = 1.2
		}
		scale := level * (1 + 0.03*rng.NormFloat64())
		r := run(start.Add(time.Duration(i)*24*time.Hour), fmt.Sprintf("1.%d", i), 40*scale)
		r.Requests = result.Requests{Scheduled: 6000, Sent: 6000, OK: 5990, Errors: 10}
		r.Errors = map[string]int64{"http_503": 10}
		r.Service = result.Summarize(svc)
		r.Histograms = result.Histograms{Latency: latEnc, Service: svcEnc}
		r.Target = &result.Target{CPUAvgPct: 40 * scale, CPUMaxPct: 60 * scale, RSSMaxBytes: 200 << 20, Source: "pid:1"}
		r.Generator.CPUAvgPct = 5 + rng.Float64()
		for s := range int64(60) {
			r.Timeline = append(r.Timeline, result.Second{T: s, Scheduled: 100, Sent: 100, OK: 100, P50Ms: 8 * scale, P99Ms: 40 * scale, MaxMs: 60 * scale, TargetCPUPct: 40 * scale})
		}
		paths[i] = filepath.Join(dir, fmt.Sprintf("run-%04d.json", i))
		if err := resultfile.Write(paths[i], r); err != nil {
			tb.Fatal(err)
		}
	}
	return paths
}

// BenchmarkHistory reads 1,000 result files and analyses 12 metrics of
// each, as `vesload trend DIR --by build` does ("read+analyse": ns/op is
// the whole), and analyses them alone ("analyse").
func BenchmarkHistory(b *testing.B) {
	paths := writeHistory(b, 1000)
	read := func(b *testing.B) []*result.Result {
		rs := make([]*result.Result, len(paths))
		for i, p := range paths {
			r, err := resultfile.Read(p)
			if err != nil {
				b.Fatal(err)
			}
			rs[i] = r
		}
		return rs
	}
	analyse := func(b *testing.B, rs []*result.Result) {
		a, err := Analyze(rs, Options{By: "build", Names: paths, Metrics: benchMetrics})
		if err != nil {
			b.Fatal(err)
		}
		if len(a.Series) != len(benchMetrics) || len(a.Series[4].Changes) == 0 {
			b.Fatalf("%d series, p99 changes %v", len(a.Series), a.Series[4].Changes)
		}
	}
	b.Run("read+analyse", func(b *testing.B) {
		for b.Loop() {
			analyse(b, read(b))
		}
	})
	b.Run("analyse", func(b *testing.B) {
		rs := read(b)
		for b.Loop() {
			analyse(b, rs)
		}
	})
}
