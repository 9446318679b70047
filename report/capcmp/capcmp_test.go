package capcmp

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	goldenfile "github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

func mustCompare(t *testing.T, a, b []*result.CapacityDocument, exprs []string, undecided compare.Undecided) *Comparison {
	t.Helper()
	gates, err := ParseGates(exprs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare("dmaap", "cambria", names("a", len(a)), names("b", len(b)), a, b, gates, undecided)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareSides(t *testing.T) {
	t.Parallel()
	c := mustCompare(t, []*result.CapacityDocument{target(2200), target(2400)}, []*result.CapacityDocument{target(1800), target(1900)}, nil, compare.UndecidedFail)
	if c.A.Mean != 2300 || c.A.Min != 2200 || c.A.Max != 2400 || c.B.Mean != 1850 {
		t.Errorf("sides: A %v %v %v, B %v, want 2300 2200 2400, 1850", c.A.Mean, c.A.Min, c.A.Max, c.B.Mean)
	}
	if math.Abs(c.A.PrecisionPct-5) > 1e-9 || c.A.Low != 2200 || c.A.High == nil || *c.A.High != 2520 {
		t.Errorf("A's interval: precision %v, [%v, %v)", c.A.PrecisionPct, c.A.Low, c.A.High)
	}
	want := "dmaap holds 2,300/s (±5 %), cambria 1,850/s (±5 %): cambria holds less (-19.6 %), beyond the precision"
	if c.Verdict != want {
		t.Errorf("verdict:\n got %s\nwant %s", c.Verdict, want)
	}
}

func TestCompareBeyondPrecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b []*result.CapacityDocument
		real bool
	}{
		{"apart", []*result.CapacityDocument{target(1000)}, []*result.CapacityDocument{target(800)}, true},
		{"touching: B's fail is A's pass", []*result.CapacityDocument{search(1000, 1050, "target", "", 0)}, []*result.CapacityDocument{search(950, 1000, "target", "", 0)}, true},
		{"overlapping", []*result.CapacityDocument{target(1000)}, []*result.CapacityDocument{target(980)}, false},
		{"higher B, apart", []*result.CapacityDocument{target(800)}, []*result.CapacityDocument{target(1000)}, true},
		{"A never failed", []*result.CapacityDocument{search(1000, 0, "", "", 0)}, []*result.CapacityDocument{target(2000)}, false},
		{"runs spread over B's", []*result.CapacityDocument{target(900), target(1100)}, []*result.CapacityDocument{target(1000)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if c := mustCompare(t, tc.a, tc.b, nil, compare.UndecidedFail); c.Real != tc.real {
				t.Errorf("beyond precision = %v, want %v (%s)", c.Real, tc.real, c.Verdict)
			}
		})
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	gen := search(1000, 1050, result.CauseGenerator, "", 0)
	tests := []struct {
		name      string
		a, b      []*result.CapacityDocument
		expr      string
		undecided compare.Undecided
		outcome   compare.Outcome
		passed    bool
		reason    string
	}{
		{"within tolerance", []*result.CapacityDocument{target(1000)}, []*result.CapacityDocument{target(950)}, "capacity>-10%", compare.UndecidedFail, compare.GatePass, true, "at least 900/s"},
		{"higher", []*result.CapacityDocument{target(1000)}, []*result.CapacityDocument{target(1500)}, "capacity>=-0%", compare.UndecidedFail, compare.GatePass, true, ""},
		{"below, beyond precision", []*result.CapacityDocument{target(2300)}, []*result.CapacityDocument{target(1850)}, "capacity>-10%", compare.UndecidedFail, compare.GateFail, false, "below 2,070/s"},
		{"below, within precision", []*result.CapacityDocument{search(1000, 1300, "target", "", 0)}, []*result.CapacityDocument{search(850, 1050, "target", "", 0)}, "capacity>-10%", compare.UndecidedPass, compare.GateUndecided, true, "within the searches' precision"},
		{"below, within precision, fail policy", []*result.CapacityDocument{search(1000, 1300, "target", "", 0)}, []*result.CapacityDocument{search(850, 1050, "target", "", 0)}, "capacity>-10%", compare.UndecidedFail, compare.GateUndecided, false, ""},
		{"generator on A", []*result.CapacityDocument{gen}, []*result.CapacityDocument{target(500)}, "capacity>-10%", compare.UndecidedFail, compare.GateUndecided, false, "decided on a generator's limit"},
		{"generator on B", []*result.CapacityDocument{target(500)}, []*result.CapacityDocument{gen}, "capacity>-10%", compare.UndecidedPass, compare.GateUndecided, true, "cambria: limited by the generator"},
		{"a baseline that held nothing", []*result.CapacityDocument{search(0, 50, "target", "", 0)}, []*result.CapacityDocument{search(0, 50, "target", "", 0)}, "capacity>-10%", compare.UndecidedFail, compare.GateUndecided, false, "held no rate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := mustCompare(t, tc.a, tc.b, []string{tc.expr}, tc.undecided)
			g := c.Gates[0]
			if g.Outcome != tc.outcome || g.Passed != tc.passed || c.Passed() != tc.passed || !strings.Contains(g.Reason, tc.reason) {
				t.Errorf("gate %s: %s, passed %v (%s); want %s, passed %v, reason with %q", tc.expr, g.Outcome, g.Passed, g.Reason, tc.outcome, tc.passed, tc.reason)
			}
		})
	}
}

func TestParseGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		op   string
		tol  float64
		err  string
	}{
		{"capacity>-10%", ">", 10, ""},
		{" capacity >= -2.5% ", ">=", 2.5, ""},
		{"p99<+10%", "", 0, "gated by capacity only"},
		{"capacity<+10%", "", 0, "worse downwards"},
		{"capacity>10%", "", 0, "with its sign"},
		{"capacity>-10", "", 0, "in percent"},
		{"capacity>-100%", "", 0, "below 100"},
		{"capacity>-x%", "", 0, "want a number"},
	}
	for _, tc := range tests {
		g, err := ParseGate(tc.expr)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.expr, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one with %q", tc.expr, err, tc.err)
		case tc.err == "" && (g.Op != tc.op || g.TolPct != tc.tol):
			t.Errorf("%q: %s %v, want %s %v", tc.expr, g.Op, g.TolPct, tc.op, tc.tol)
		}
	}
}

func TestRate(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0: "0", 999.6: "1,000", 2300: "2,300", 1234567: "1,234,567", -1850: "-1,850"} {
		if got := Rate(in); got != want {
			t.Errorf("Rate(%v) = %s, want %s", in, got, want)
		}
	}
}

// golden compares a rendering with its file in testdata (go test -update
// writes it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, "testdata/"+name, got)
}

func TestRenderings(t *testing.T) {
	t.Parallel()
	gated := func() *Comparison {
		return mustCompare(t, []*result.CapacityDocument{target(2200), target(2400)},
			[]*result.CapacityDocument{target(1800), target(1900)}, []string{"capacity>-10%"}, compare.UndecidedFail)
	}
	generator := func() *Comparison {
		return mustCompare(t, []*result.CapacityDocument{target(2300)},
			[]*result.CapacityDocument{search(1850, 1940, result.CauseGenerator, "", 0)}, []string{"capacity>-10%"}, compare.UndecidedFail)
	}
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"text_gates.golden", func(b *bytes.Buffer) error { return Text(b, gated()) }},
		{"markdown_gates.golden", func(b *bytes.Buffer) error { return Markdown(b, gated()) }},
		{"text_generator.golden", func(b *bytes.Buffer) error { return Text(b, generator()) }},
		{"junit_gates.golden", func(b *bytes.Buffer) error { return JUnit(b, generator()) }},
		{"trend_text.golden", func(b *bytes.Buffer) error { return TrendText(b, history(t)) }},
		{"trend_markdown.golden", func(b *bytes.Buffer) error { return TrendMarkdown(b, history(t)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := tc.render(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	c := mustCompare(t, []*result.CapacityDocument{search(2300, 0, "", "", 0)}, []*result.CapacityDocument{target(1850)}, []string{"capacity>-10%"}, compare.UndecidedFail)
	if want := "dmaap holds at least 2,300/s (a search never failed), cambria 1,850/s (±5 %)"; !strings.HasPrefix(c.Verdict, want) {
		t.Errorf("verdict %q, want it to start %q", c.Verdict, want)
	}
	if err := JSON(&b, c); err != nil {
		t.Fatal(err)
	}
	var back struct {
		A struct {
			Mean float64  `json:"mean_rps"`
			High *float64 `json:"high_rps"`
		} `json:"a"`
		B struct {
			High *float64 `json:"high_rps"`
		} `json:"b"`
		Real  bool `json:"beyond_precision"`
		Gates []struct {
			Outcome string `json:"outcome"`
		} `json:"gates"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.A.Mean != 2300 || back.A.High != nil || back.B.High == nil || !back.Real || len(back.Gates) != 1 || back.Gates[0].Outcome != "fail" {
		t.Errorf("JSON read back: %+v\n%s", back, b.String())
	}
}
