package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func mustGates(t testing.TB, exprs ...string) []Gate {
	t.Helper()
	gs, err := ParseGates(exprs)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// withRate sets the achieved rate of every run (rps gates).
func withRate(rs []*result.Result, rates ...float64) []*result.Result {
	for i, r := range rs {
		r.RPS.Achieved = rates[i]
	}
	return rs
}

// withErrors gives every run n failed requests of its 1000.
func withErrors(rs []*result.Result, n int64) []*result.Result {
	for _, r := range rs {
		r.Requests.OK, r.Requests.Errors = r.Requests.Sent-n, n
		r.Errors = map[string]int64{"http_503": n}
	}
	return rs
}

func TestGateVerdicts(t *testing.T) {
	t.Parallel()
	a3 := func() []*result.Result { return side(t, 10, 1, 1.00, 1.03, 0.98) }
	tests := []struct {
		name     string
		a, b     []*result.Result
		opts     Options
		gates    []string
		outcomes []Outcome
		pass     []bool
		limit    string // in GateSet.Limit, "" for none
	}{
		{
			name: "B 30% slower, three runs a side", a: a3(), b: side(t, 13, 10, 1.01, 0.99, 1.02),
			gates:    []string{"p99<+10%", "p99<+50%", "mean<+2ms", "mean<+5ms", "p50<=+10%"},
			outcomes: []Outcome{GateFail, GatePass, GateFail, GatePass, GateFail},
			pass:     []bool{false, true, false, true, false},
		},
		{
			name: "same build on both sides", a: a3(), b: side(t, 10, 10, 1.01, 0.99, 1.02),
			gates:    []string{"p99<+10%", "p50<+1%", "error_rate<+0.5pp"},
			outcomes: []Outcome{GatePass, GatePass, GatePass},
			pass:     []bool{true, true, true},
		},
		{
			name: "worse beyond the tolerance but within the noise", a: side(t, 10, 1, 0.8, 1.25, 1.0), b: side(t, 11.5, 10, 0.8, 1.3, 1.0),
			gates:    []string{"p50<+5%"},
			outcomes: []Outcome{GatePass},
			pass:     []bool{true},
		},
		{
			name: "single runs cannot decide, by default they fail",
			a:    side(t, 10, 1, 1), b: side(t, 13, 10, 1),
			gates:    []string{"p99<+10%", "p99<+50%"},
			outcomes: []Outcome{GateUndecided, GateUndecided},
			pass:     []bool{false, false},
			limit:    "A has 1 run and B 1 run: run-to-run variation is unknown",
		},
		{
			name: "single runs with --gate-undecided pass",
			a:    side(t, 10, 1, 1), b: side(t, 13, 10, 1), opts: Options{Undecided: UndecidedPass},
			gates:    []string{"p99<+10%"},
			outcomes: []Outcome{GateUndecided},
			pass:     []bool{true},
			limit:    "run-to-run variation is unknown",
		},
		{
			name: "the U test with three runs a side cannot decide", a: a3(), b: side(t, 13, 10, 1.01, 0.99, 1.02),
			opts:     Options{Test: UTest},
			gates:    []string{"p99<+10%"},
			outcomes: []Outcome{GateUndecided},
			pass:     []bool{false},
			limit:    "the Mann-Whitney U test cannot reach p < 0.05 with so few runs (the smallest possible p is 0.100), so no gate can be decided; it needs 4 runs a side",
		},
		{
			name: "the U test with four runs a side decides", a: side(t, 10, 1, 1.00, 1.03, 0.98, 1.01), b: side(t, 13, 10, 1.01, 0.99, 1.02, 1.0),
			opts:     Options{Test: UTest},
			gates:    []string{"p99<+10%", "p99<+50%"},
			outcomes: []Outcome{GateFail, GatePass},
			pass:     []bool{false, true},
		},
		{
			name: "lower throughput is worse", a: withRate(a3(), 100, 99.5, 100.2), b: withRate(side(t, 10, 10, 1, 1, 1), 80, 80.5, 79.8),
			gates:    []string{"rps>-5%", "rps>-25%", "rps>=-30/s"},
			outcomes: []Outcome{GateFail, GatePass, GatePass},
			pass:     []bool{false, true, true},
		},
		{
			name: "higher throughput is no regression", a: withRate(a3(), 80, 80.5, 79.8), b: withRate(side(t, 10, 10, 1, 1, 1), 100, 99.5, 100.2),
			gates:    []string{"rps>-1%"},
			outcomes: []Outcome{GatePass},
			pass:     []bool{true},
		},
		{
			name: "errors from zero: points decide where percent cannot", a: a3(), b: withErrors(side(t, 10, 10, 1, 1, 1), 5),
			gates:    []string{"error_rate<+0.1pp", "error_rate<+1pp", "error_rate<+1000%"},
			outcomes: []Outcome{GateFail, GatePass, GateFail},
			pass:     []bool{false, true, false},
		},
		{
			name: "a metric no run has fails", a: a3(), b: side(t, 10, 10, 1, 1, 1),
			gates:    []string{"e2e_p99<+10%"},
			outcomes: []Outcome{GateFail},
			pass:     []bool{false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			opts.Gates = mustGates(t, tc.gates...)
			c, err := Compare(tc.a, tc.b, opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Gates == nil || len(c.Gates.Verdicts) != len(tc.gates) {
				t.Fatalf("gates %+v", c.Gates)
			}
			allPass := true
			for i, v := range c.Gates.Verdicts {
				if v.Outcome != tc.outcomes[i] || v.Pass != tc.pass[i] {
					t.Errorf("%s: outcome %s pass %v, want %s %v: %s", v.Gate.Expr, v.Outcome, v.Pass, tc.outcomes[i], tc.pass[i],
						v.Sentence("A", "B", c.Alpha))
				}
				if v.Outcome != GateUndecided && v.Note == "" && (!v.Tested || v.P < 0 || v.P > 1) {
					t.Errorf("%s: decided without a p-value: %+v", v.Gate.Expr, v)
				}
				allPass = allPass && tc.pass[i]
			}
			if c.Gates.Passed() != allPass {
				t.Errorf("Passed() = %v, want %v", c.Gates.Passed(), allPass)
			}
			if (tc.limit == "") != (c.Gates.Limit == "") || !strings.Contains(c.Gates.Limit, tc.limit) {
				t.Errorf("limit %q, want one containing %q", c.Gates.Limit, tc.limit)
			}
		})
	}
}

func TestGateMissingMetric(t *testing.T) {
	t.Parallel()
	c, err := Compare(side(t, 10, 1, 1, 1, 1), side(t, 10, 10, 1, 1, 1), Options{Gates: mustGates(t, "e2e_p99<+10%")})
	if err != nil {
		t.Fatal(err)
	}
	v := c.Gates.Verdicts[0]
	if v.ChangeText() != "n/a" || v.PText() != "no p-value" ||
		v.Sentence("A", "B", 0.05) != "cannot be checked: A run 1: delivery was not followed (--consume)" {
		t.Errorf("missing metric: %q, %q, %q", v.ChangeText(), v.PText(), v.Sentence("A", "B", 0.05))
	}
}

func TestGateChange(t *testing.T) {
	t.Parallel()
	c, err := Compare(side(t, 10, 1, 1.00, 1.03, 0.98), side(t, 13, 10, 1.01, 0.99, 1.02),
		Options{Gates: mustGates(t, "p99<+10%", "p99<+1ms", "error_rate<+1pp")})
	if err != nil {
		t.Fatal(err)
	}
	rel, abs, pts := c.Gates.Verdicts[0], c.Gates.Verdicts[1], c.Gates.Verdicts[2]
	row := rowOf(t, c, "latency_ms.p99")
	if math.Abs(rel.Change-row.DeltaPct) > 1e-9 || rel.A != row.A.Center || rel.B != row.B.Center || rel.P != row.P {
		t.Errorf("relative gate %+v disagrees with the table's row %+v", rel, row)
	}
	if math.Abs(abs.Change-(row.B.Center-row.A.Center)) > 1e-9 {
		t.Errorf("absolute change %g, want %g", abs.Change, row.B.Center-row.A.Center)
	}
	if pts.Change != 0 || pts.Outcome != GatePass {
		t.Errorf("points %+v", pts)
	}
	if got := rel.ChangeText(); !strings.HasPrefix(got, "+") || !strings.HasSuffix(got, "% worse") {
		t.Errorf("change text %q", got)
	}
}

// timeline gives r n whole seconds whose p99 is p99 ms (± a little, so
// the U test sees no ties), whose p50 and mean are half of it and p95
// 0.9 of it.
func timeline(r *result.Result, n int, p99 float64) *result.Result {
	r.DurationS = float64(n)
	r.Timeline = nil
	for i := range n {
		v := p99 * (1 + 0.01*float64(i%5-2))
		r.Timeline = append(r.Timeline, result.Second{T: int64(i), Scheduled: 100, Sent: 100, OK: 100, P50Ms: v / 2, AvgMs: v / 2, P95Ms: 0.9 * v, P99Ms: v, MaxMs: v * 1.2})
	}
	r.Latency.P99, r.Latency.P50, r.Latency.Avg, r.Latency.P95 = p99, p99/2, p99/2, 0.9*p99
	return r
}

func TestJudgeBaseline(t *testing.T) {
	t.Parallel()
	base := func(n int) *result.Result { return timeline(synth(t, runSpec{base: 10, seed: 1}), n, 20) }
	tests := []struct {
		name    string
		base    *result.Result
		run     *result.Result
		opts    BaselineOptions
		gates   []string
		outcome []Outcome
		pass    bool
		note    string
	}{
		{"a 12ms run against a 10ms baseline", base(10), timeline(synth(t, runSpec{base: 12, seed: 2}), 10, 24), BaselineOptions{},
			[]string{"p99<+10%", "p99<+30%", "p50<+10%"}, []Outcome{GateFail, GatePass, GateFail}, false, "per-second p99, 10 s vs 10 s"},
		{"the same figures", base(10), timeline(synth(t, runSpec{base: 10, seed: 2}), 10, 20), BaselineOptions{},
			[]string{"p99<+10%", "rps>-5%", "error_rate<+0.5pp"}, []Outcome{GatePass, GatePass, GatePass}, true, ""},
		{"too few seconds", base(2), timeline(synth(t, runSpec{base: 12, seed: 2}), 2, 24), BaselineOptions{},
			[]string{"p99<+10%"}, []Outcome{GateUndecided}, false, "2 seconds in the baseline and 2 in this run are too few"},
		{"too few seconds, undecided passes", base(2), timeline(synth(t, runSpec{base: 12, seed: 2}), 2, 24), BaselineOptions{Undecided: UndecidedPass},
			[]string{"p99<+10%"}, []Outcome{GateUndecided}, true, "too few"},
		{"no per-second p90", base(10), timeline(synth(t, runSpec{base: 12, seed: 2}), 10, 24), BaselineOptions{},
			[]string{"p90<+10%"}, []Outcome{GateUndecided}, false, "the timeline carries no per-second p90"},
		{"the mean and p95 of the same build", base(10), timeline(synth(t, runSpec{base: 10, seed: 2}), 10, 20), BaselineOptions{},
			[]string{"avg<+1ms", "mean<+10%", "p95<+1ms"}, []Outcome{GatePass, GatePass, GatePass}, true, "per-second mean, 10 s vs 10 s"},
		{"the mean and p95 of a slower build", base(10), timeline(synth(t, runSpec{base: 12, seed: 2}), 10, 24), BaselineOptions{},
			[]string{"avg<+1ms", "p95<+1ms"}, []Outcome{GateFail, GateFail}, false, "per-second p95, 10 s vs 10 s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			set, err := JudgeBaseline(tc.base, tc.run, mustGates(t, tc.gates...), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range set.Verdicts {
				if v.Outcome != tc.outcome[i] {
					t.Errorf("%s: %s, want %s: %s", v.Gate.Expr, v.Outcome, tc.outcome[i], v.Sentence("baseline", "this run", 0.05))
				}
			}
			if set.Passed() != tc.pass {
				t.Errorf("passed %v, want %v", set.Passed(), tc.pass)
			}
			text := strings.Join(set.Lines("baseline", "this run", 0.05), "\n")
			if !strings.Contains(text, tc.note) || !strings.Contains(text, "per-second figures") {
				t.Errorf("lines lack %q or the per-second basis:\n%s", tc.note, text)
			}
			var out strings.Builder
			if err := set.BaselineText(&out, "base.json", 0.05); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if !strings.HasPrefix(got, "\nBaseline base.json:\n  Gates: ") || !strings.HasSuffix(got, "\n"+set.Headline()+"\n") {
				t.Errorf("baseline text lacks its heading or headline:\n%s", got)
			}
			for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
				if len([]rune(l)) > 4+98 { // the indent and the wrap width
					t.Errorf("line of %d characters, want at most 102: %q", len([]rune(l)), l)
				}
			}
		})
	}
	if _, err := JudgeBaseline(nil, base(3), nil, BaselineOptions{}); err == nil {
		t.Error("judged without a baseline")
	}
}

// gates returns the gates of the set, in order.
func (s *GateSet) gates() []Gate {
	out := make([]Gate, len(s.Verdicts))
	for i, v := range s.Verdicts {
		out[i] = v.Gate
	}
	return out
}
