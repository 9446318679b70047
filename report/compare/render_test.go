package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/result"
)

// slowerB is the A/B case of the issue: B 30% slower, errors on one
// side, three runs each.
func slowerB(t testing.TB, opts Options) *Comparison {
	t.Helper()
	a := side(t, 10, 1, 1.00, 1.03, 0.98)
	b := side(t, 13, 10, 1.01, 0.99, 1.02)
	b[2] = synth(t, runSpec{base: 13, jitter: 1.02, seed: 12, errors: 5, cpu: 42})
	c, err := Compare(a, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func singleRuns(t testing.TB) *Comparison {
	t.Helper()
	c, err := Compare([]*result.Result{synth(t, runSpec{base: 10, seed: 1})},
		[]*result.Result{synth(t, runSpec{base: 13, seed: 2})}, Options{NameA: "dmaap", NameB: "cambria"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGolden(t *testing.T) {
	t.Parallel()
	named := Options{NameA: "dmaap", NameB: "cambria"}
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"text.golden", func(b *bytes.Buffer) error { return Text(b, slowerB(t, named)) }},
		{"text_median_utest.golden", func(b *bytes.Buffer) error {
			return Text(b, slowerB(t, Options{Test: UTest, Center: Median}))
		}},
		{"text_single.golden", func(b *bytes.Buffer) error { return Text(b, singleRuns(t)) }},
		{"markdown.golden", func(b *bytes.Buffer) error { return Markdown(b, slowerB(t, named)) }},
		{"text_gates.golden", func(b *bytes.Buffer) error { return Text(b, slowerB(t, gated(t, named))) }},
		{"text_gates_single.golden", func(b *bytes.Buffer) error { return Text(b, singleGated(t, Options{})) }},
		{"markdown_gates.golden", func(b *bytes.Buffer) error { return Markdown(b, slowerB(t, gated(t, named))) }},
		{"junit_gates.golden", func(b *bytes.Buffer) error { return JUnit(b, slowerB(t, gated(t, named))) }},
		{"junit_gates_single.golden", func(b *bytes.Buffer) error { return JUnit(b, singleGated(t, Options{Undecided: UndecidedPass})) }},
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
	if err := JSON(&b, slowerB(t, Options{NameA: "dmaap", NameB: "cambria"})); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NameA string `json:"name_a"`
		Rows  []map[string]any
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	byMetric := map[string]map[string]any{}
	for _, r := range doc.Rows {
		for _, k := range []string{"metric", "a", "b", "delta_pct", "p_value", "significant"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r["metric"], k)
			}
		}
		byMetric[r["metric"].(string)] = r
	}
	p99 := byMetric["latency_ms.p99"]
	if p99 == nil || p99["significant"] != true || p99["delta_pct"].(float64) < 20 {
		t.Errorf("latency_ms.p99 row %v, want significant and about +30%%", p99)
	}
	er := byMetric["error_rate"]
	if er == nil || er["delta_pct"] != nil || er["a"].(float64) != 0 {
		t.Errorf("error_rate row %v: want delta_pct null for a zero baseline", er)
	}
	for _, m := range []string{"rps.achieved", "target.cpu_max_pct", "service_ms.p99", "latency_ms.avg"} {
		if byMetric[m] == nil {
			t.Errorf("no row %s", m)
		}
	}
	if doc.NameA != "dmaap" {
		t.Errorf("name_a %q", doc.NameA)
	}

	b.Reset()
	if err := JSON(&b, singleRuns(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"p_value": null`) || !strings.Contains(b.String(), `"ks_d"`) {
		t.Errorf("single-run JSON lacks null p-values or the distribution test:\n%s", b.String())
	}
}

func TestRenderNil(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(*bytes.Buffer, *Comparison) error{
		"text":     func(b *bytes.Buffer, c *Comparison) error { return Text(b, c) },
		"markdown": func(b *bytes.Buffer, c *Comparison) error { return Markdown(b, c) },
		"json":     func(b *bytes.Buffer, c *Comparison) error { return JSON(b, c) },
	} {
		if err := f(new(bytes.Buffer), nil); err == nil {
			t.Errorf("%s accepted a nil comparison", name)
		}
	}
}

func TestVerdictWording(t *testing.T) {
	t.Parallel()
	tests := []struct {
		row  Row
		want string
	}{
		{Row{Tested: false, DeltaPct: 12}, "?"},
		{Row{Tested: true, P: 0.2, DeltaPct: 12}, "~"},
		{Row{Tested: true, Significant: true, DeltaPct: 31.24, Better: LowerIsBetter}, "+31.2% worse"},
		{Row{Tested: true, Significant: true, DeltaPct: -4, Better: LowerIsBetter}, "-4.0% better"},
		{Row{Tested: true, Significant: true, DeltaPct: -4, Better: HigherIsBetter}, "-4.0% worse"},
		{Row{Tested: true, Significant: true, DeltaPct: 7, Better: HigherIsBetter}, "+7.0% better"},
		{Row{Tested: true, Significant: true, DeltaPct: 7, Better: Neutral}, "+7.0%"},
		{Row{Tested: true, Significant: true, DeltaPct: math.Inf(1), Better: LowerIsBetter}, "+inf% worse"},
	}
	for _, tc := range tests {
		if got := tc.row.Verdict(); got != tc.want {
			t.Errorf("verdict of %+v = %q, want %q", tc.row, got, tc.want)
		}
	}
}

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// Every rendering shows the absolute change beside the relative one: ms
// for times, percentage points for rates, the metric's unit otherwise.
func TestAbsoluteChange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label string
		a, b  float64
		want  string
	}{
		{"p99 latency (ms)", 1.45, 3.65, "+2.20 ms"},
		{"error rate (%)", 0.5, 0.1, "-0.40 pp"},
		{"achieved rate (/s)", 100, 100.001, "0.00 /s"},
		{"HV-VES messages lost", 3, 5, "+2.00"},
	} {
		r := Row{Label: c.label, A: Side{Center: c.a}, B: Side{Center: c.b}}
		if got := r.AbsDelta(); got != c.want {
			t.Errorf("%s %v → %v: %q, want %q", c.label, c.a, c.b, got, c.want)
		}
	}
	cmp := &Comparison{NameA: "A", NameB: "B", RunsA: 1, RunsB: 1,
		Rows: []Row{{Metric: "latency_ms.p99", Label: "p99 latency (ms)", A: Side{Center: 1.45}, B: Side{Center: 3.65}, DeltaPct: 151.7}}}
	var js, txt strings.Builder
	if err := JSON(&js, cmp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"change": 2.2,`) || !strings.Contains(js.String(), `"change_unit": "ms"`) {
		t.Errorf("JSON lacks the change in ms:\n%s", js.String())
	}
	if err := Text(&txt, cmp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "+2.20 ms  +151.7%") {
		t.Errorf("text lacks the change beside the delta:\n%s", txt.String())
	}
}
