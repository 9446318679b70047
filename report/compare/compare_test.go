package compare

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// latencyRows are the rows that must turn significant when B is slower.
func latencyRows() []string {
	return []string{"latency_ms.avg", "latency_ms.p50", "latency_ms.p95", "latency_ms.p99", "service_ms.p99"}
}

func TestCompareKnownAnswers(t *testing.T) {
	t.Parallel()
	// Run-to-run variation of a few percent, as repeated runs show.
	j3a, j3b := []float64{1.00, 1.03, 0.98}, []float64{1.01, 0.99, 1.02}
	j5a, j5b := []float64{1.00, 1.03, 0.98, 1.01, 0.97}, []float64{1.01, 0.99, 1.02, 0.98, 1.03}
	tests := []struct {
		name        string
		a, b        []*result.Result
		test        Test
		significant bool   // for every latency row
		verdict     string // prefix of the p99 verdict
		note        string // a note that must be present ("" none about the test)
	}{
		{"same distribution welch", side(t, 10, 1, j3a...), side(t, 10, 10, j3b...), Welch, false, "~", ""},
		{"same distribution utest", side(t, 10, 1, j5a...), side(t, 10, 10, j5b...), UTest, false, "~", ""},
		{"B 30% slower welch 3 runs", side(t, 10, 1, j3a...), side(t, 13, 10, j3b...), Welch, true, "+", ""},
		{"B 30% slower utest 5 runs", side(t, 10, 1, j5a...), side(t, 13, 10, j5b...), UTest, true, "+", ""},
		{"B 30% slower utest 3 runs", side(t, 10, 1, j3a...), side(t, 13, 10, j3b...), UTest, false, "~", "cannot reach p < 0.05"},
		{"B 30% faster welch", side(t, 13, 1, j3a...), side(t, 10, 10, j3b...), Welch, true, "-", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Compare(tc.a, tc.b, Options{NameA: "dmaap", NameB: "cambria", Test: tc.test})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range latencyRows() {
				r := rowOf(t, c, m)
				if !r.Tested || r.Significant != tc.significant {
					t.Errorf("%s: tested %v significant %v (p=%.4f), want significant %v", m, r.Tested, r.Significant, r.P, tc.significant)
				}
			}
			p99 := rowOf(t, c, "latency_ms.p99")
			if !strings.HasPrefix(p99.Verdict(), tc.verdict) {
				t.Errorf("p99 verdict %q, want prefix %q", p99.Verdict(), tc.verdict)
			}
			if tc.significant {
				want := " worse"
				if tc.verdict == "-" {
					want = " better"
				}
				if !strings.HasSuffix(p99.Verdict(), want) {
					t.Errorf("p99 verdict %q lacks %q", p99.Verdict(), want)
				}
				if math.Abs(math.Abs(p99.DeltaPct)-30) > 8 && math.Abs(p99.DeltaPct+23) > 8 {
					t.Errorf("p99 delta %.1f%%, want about ±30%%", p99.DeltaPct)
				}
			}
			// No run had errors: identical sides, never a division by zero.
			er := rowOf(t, c, "error_rate")
			if er.Verdict() != "~" || er.P != 1 || er.DeltaPct != 0 {
				t.Errorf("error_rate verdict %q p %v delta %v, want ~, 1, 0", er.Verdict(), er.P, er.DeltaPct)
			}
			notes := strings.Join(c.Notes, "\n")
			if tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes lack %q:\n%s", tc.note, notes)
			}
			if tc.note == "" && strings.Contains(notes, "cannot reach") {
				t.Errorf("unexpected note about the test:\n%s", notes)
			}
		})
	}
}

func TestCompareIdenticalSides(t *testing.T) {
	t.Parallel()
	r := synth(t, runSpec{base: 10, seed: 1, cpu: 50})
	for _, test := range []Test{Welch, UTest} {
		c, err := Compare([]*result.Result{r, r, r}, []*result.Result{r, r, r}, Options{Test: test})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Rows) != 10 {
			t.Fatalf("%s: %d rows %v, want all 10", test, len(c.Rows), metricNames(c))
		}
		for _, row := range c.Rows {
			if row.Verdict() != "~" || row.P != 1 || row.DeltaPct != 0 || row.A.StdDev != 0 {
				t.Errorf("%s %s: verdict %q p %v delta %v stddev %v, want ~ 1 0 0", test, row.Metric, row.Verdict(), row.P, row.DeltaPct, row.A.StdDev)
			}
		}
	}
}

func TestCompareZeroBaseline(t *testing.T) {
	t.Parallel()
	a := side(t, 10, 1, 1, 1.01, 0.99)
	b := side(t, 10, 1, 1, 1.01, 0.99)
	for i, n := range []int64{30, 45, 36} {
		b[i] = synth(t, runSpec{base: 10, jitter: []float64{1, 1.01, 0.99}[i], seed: uint64(1 + i), errors: n, cpu: 42})
	}
	c, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	er := rowOf(t, c, "error_rate")
	if !math.IsInf(er.DeltaPct, 1) || er.Delta() != "+inf%" {
		t.Fatalf("delta %v %q, want +Inf", er.DeltaPct, er.Delta())
	}
	if !er.Significant || er.Verdict() != "+inf% worse" {
		t.Errorf("verdict %q (p=%v), want +inf%% worse", er.Verdict(), er.P)
	}
	// Same latencies on both sides: still "~".
	if v := rowOf(t, c, "latency_ms.p99").Verdict(); v != "~" {
		t.Errorf("p99 verdict %q, want ~", v)
	}
}

func TestCompareConstantButDifferentSides(t *testing.T) {
	t.Parallel()
	if p := pValue([]float64{100, 100, 100}, []float64{50, 50, 50}, Welch, 0.05); p != 0 {
		t.Errorf("welch p = %v, want 0 for exact different constants", p)
	}
	if p := pValue([]float64{100, 100, 100}, []float64{50, 50, 50}, UTest, 0.05); math.Abs(p-0.1) > 1e-9 {
		t.Errorf("utest p = %v, want 0.1 (the smallest possible with 3+3)", p)
	}
}

func TestWelchKnownValue(t *testing.T) {
	t.Parallel()
	// t = -3/sqrt(2/3) = -3.674 with 4 degrees of freedom: p = 0.02131.
	p := pValue([]float64{1, 2, 3}, []float64{4, 5, 6}, Welch, 0.05)
	if math.Abs(p-0.02131) > 5e-5 {
		t.Errorf("p = %.5f, want 0.02131", p)
	}
	// Unequal variances: a = [10, 12, 14], b = [10, 20, 30]:
	// t = -1.3587 with Welch's 2.1597 degrees of freedom (not an
	// integer): p = 0.2987, from integrating the t density.
	p = pValue([]float64{10, 12, 14}, []float64{10, 20, 30}, Welch, 0.05)
	if math.Abs(p-0.2987) > 5e-4 {
		t.Errorf("p = %.4f, want 0.2987", p)
	}
}

func TestUTestMinimum(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n1, n2 int
		want   float64
	}{
		{1, 1, 1}, {2, 2, 1.0 / 3}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {5, 5, 2.0 / 252}, {3, 5, 2.0 / 56},
	}
	for _, tc := range tests {
		if got := minUTestP(tc.n1, tc.n2); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("minUTestP(%d, %d) = %v, want %v", tc.n1, tc.n2, got, tc.want)
		}
	}
	if n := uTestRunsNeeded(0.05); n != 4 {
		t.Errorf("runs needed at 0.05 = %d, want 4", n)
	}
	if n := uTestRunsNeeded(0.01); n != 5 {
		t.Errorf("runs needed at 0.01 = %d, want 5", n)
	}
}

func TestCompareSingleRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		b        *result.Result
		differ   bool
		minShift float64
	}{
		{"same distribution", synth(t, runSpec{base: 10, seed: 2, requests: 5000}), false, 0},
		{"B 30% slower", synth(t, runSpec{base: 13, seed: 2, requests: 5000}), true, 25},
	}
	a := synth(t, runSpec{base: 10, seed: 1, requests: 5000})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Compare([]*result.Result{a}, []*result.Result{tc.b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range c.Rows {
				if r.Tested || r.Verdict() != "?" || r.PValue() != "-" {
					t.Errorf("%s: tested %v verdict %q with single runs", r.Metric, r.Tested, r.Verdict())
				}
			}
			if len(c.Distributions) != 2 {
				t.Fatalf("%d distribution tests, want latency and service", len(c.Distributions))
			}
			for _, d := range c.Distributions {
				if d.Significant != tc.differ || d.NA != 5000 || d.NB != 5000 {
					t.Errorf("%s: significant %v (D=%.3f p=%.4f) n %d/%d, want %v", d.Metric, d.Significant, d.D, d.P, d.NA, d.NB, tc.differ)
				}
				if tc.differ && d.Shift < tc.minShift {
					t.Errorf("%s: shift %.1f%% at p%v, want at least %v%%", d.Metric, d.Shift, d.ShiftPercentile, tc.minShift)
				}
			}
			if !strings.Contains(strings.Join(c.Notes, " "), "run-to-run variation cannot be judged from single runs") {
				t.Errorf("notes lack the single-run caveat: %q", c.Notes)
			}
		})
	}
}

func TestCompareConfigMismatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(*result.RunConfig)
		field  string // "" when comparable
	}{
		{"other host, same path", func(c *result.RunConfig) { c.URL = "https://collector-b:8443/eventListener/v7" }, ""},
		{"pool differs", func(c *result.RunConfig) { c.Pool = 64 }, ""},
		{"rps", func(c *result.RunConfig) { c.RPS = 50 }, "rps"},
		{"duration", func(c *result.RunConfig) { c.DurationS = 600 }, "duration_s"},
		{"event", func(c *result.RunConfig) { c.Event = "measurement" }, "event"},
		{"event size", func(c *result.RunConfig) { c.EventSize = 8192 }, "event_size"},
		{"batch", func(c *result.RunConfig) { c.Batch = 10 }, "batch"},
		{"body file", func(c *result.RunConfig) { c.BodyFile = "fault.json" }, "body_file"},
		{"path", func(c *result.RunConfig) { c.URL = "http://collector-a:8080/eventListener/v5" }, "path"},
		{"auth mode", func(c *result.RunConfig) { c.Auth = "certificate" }, "auth"},
		{"no auth, recorded or not", func(c *result.RunConfig) { c.Auth = "none" }, ""},
		{"expected statuses", func(c *result.RunConfig) { c.ExpectStatus = "202" }, "expect_status"},
		{"2xx, recorded or not", func(c *result.RunConfig) { c.ExpectStatus = "2xx" }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := side(t, 10, 1, 1, 1.01)
			b := side(t, 10, 5, 1, 1.01)
			tc.change(&b[1].Config)
			_, err := Compare(a, b, Options{NameA: "dmaap", NameB: "cambria", LabelsB: []string{"b1.json", "b2.json"}})
			if tc.field == "" {
				if err != nil {
					t.Fatalf("comparable runs refused: %v", err)
				}
				return
			}
			var m *MismatchError
			if !errors.As(err, &m) {
				t.Fatalf("error %v, want a *MismatchError", err)
			}
			if m.Field != tc.field || m.RunA != "dmaap run 1" || m.RunB != "b2.json" || m.ValueA == m.ValueB {
				t.Errorf("mismatch %+v, want field %s between dmaap run 1 and b2.json", m, tc.field)
			}
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q: want one line naming %s", err, tc.field)
			}
			c, err := Compare(a, b, Options{Force: true})
			if err != nil {
				t.Fatalf("forced: %v", err)
			}
			if !strings.Contains(strings.Join(c.Notes, " "), "compared although config differs in "+tc.field) {
				t.Errorf("forced comparison does not note the difference: %q", c.Notes)
			}
		})
	}
}

func TestCompareMissingMetrics(t *testing.T) {
	t.Parallel()
	a := side(t, 10, 1, 1, 1.01)
	b := side(t, 10, 5, 1, 1.01)
	b[1].Target = nil
	c, err := Compare(a, b, Options{NameB: "cambria"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if strings.HasPrefix(r.Metric, "target.") {
			t.Errorf("row %s compared although cambria run 2 did not sample the target", r.Metric)
		}
	}
	want := "not compared: target.cpu_avg_pct, target.cpu_max_pct (cambria run 2 did not sample the target)"
	if !strings.Contains(strings.Join(c.Notes, "\n"), want) {
		t.Errorf("notes %q lack %q", c.Notes, want)
	}

	// No run sampled the target: no rows and nothing to explain.
	for _, r := range append(a, b...) {
		r.Target = nil
	}
	c, err = Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 8 || len(c.Notes) != 0 {
		t.Errorf("%d rows %v notes %q, want 8 rows without target and no note", len(c.Rows), metricNames(c), c.Notes)
	}
}

func TestCompareBadInput(t *testing.T) {
	t.Parallel()
	r := []*result.Result{synth(t, runSpec{base: 10, seed: 1})}
	tests := []struct {
		name string
		a, b []*result.Result
		opts Options
		want string
	}{
		{"no A", nil, r, Options{NameA: "dmaap"}, "no runs for dmaap"},
		{"no B", r, nil, Options{}, "no runs for B"},
		{"nil run", r, []*result.Result{nil}, Options{}, "B run 1 is missing"},
		{"bad test", r, r, Options{Test: "ks"}, `unknown test "ks"`},
		{"bad centre", r, r, Options{Center: "mode"}, `unknown centre "mode"`},
		{"bad alpha", r, r, Options{Alpha: 2}, "alpha 2"},
	}
	for _, tc := range tests {
		if _, err := Compare(tc.a, tc.b, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestMedianCentre(t *testing.T) {
	t.Parallel()
	s := summarize([]float64{3, 1, 10, 2}, Median)
	if s.Center != 2.5 || s.Min != 1 || s.Max != 10 || s.Values[0] != 3 {
		t.Errorf("median side %+v", s)
	}
	if got := s.Format(Median); got != "2.50 (1.00–10.00)" {
		t.Errorf("format %q", got)
	}
	m := summarize([]float64{1, 2, 3}, Mean)
	if m.Center != 2 || m.StdDev != 1 || m.Format(Mean) != "2.00 ± 1.00" {
		t.Errorf("mean side %+v %q", m, m.Format(Mean))
	}
	if one := summarize([]float64{7}, Mean); one.Format(Mean) != "7.00" || one.StdDev != 0 {
		t.Errorf("single run %+v", one)
	}
}

func TestKolmogorovQ(t *testing.T) {
	t.Parallel()
	// Critical values of the Kolmogorov distribution.
	for _, tc := range []struct{ lambda, q float64 }{{1.3581, 0.05}, {1.6276, 0.01}, {1.2238, 0.10}, {0.1, 1}} {
		if got := kolmogorovQ(tc.lambda); math.Abs(got-tc.q) > 5e-4 {
			t.Errorf("Q(%v) = %v, want %v", tc.lambda, got, tc.q)
		}
	}
}

func TestKSTest(t *testing.T) {
	t.Parallel()
	low, high := result.NewHistogram(), result.NewHistogram()
	for v := int64(1000); v < 2000; v++ {
		_ = low.RecordValue(v)
		_ = high.RecordValue(v + 5000)
	}
	if d := ksTest(low, low); d.D != 0 || d.P != 1 {
		t.Errorf("identical: D=%v p=%v, want 0 and 1", d.D, d.P)
	}
	if d := ksTest(low, high); d.D != 1 || d.P > 1e-6 || d.NA != 1000 {
		t.Errorf("disjoint: D=%v p=%v n=%d, want 1 and p≈0", d.D, d.P, d.NA)
	}
}
