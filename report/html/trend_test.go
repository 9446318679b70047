package html

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/trend"
)

// historyAnalysis is a history of four builds, three runs each, whose
// p99 regresses at 1.11 and is fixed at 1.12, with a gate.
func historyAnalysis(t *testing.T) *trend.Analysis {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	var rs []*result.Result
	var names []string
	start := time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)
	for _, b := range []struct {
		name string
		p99  float64
	}{{"1.9", 20}, {"1.10", 20}, {"1.11", 31}, {"1.12", 20}} {
		for k := range 3 {
			p99 := b.p99 * (1 + 0.03*rng.NormFloat64())
			st := start.Add(time.Duration(len(rs)) * 24 * time.Hour)
			rs = append(rs, &result.Result{
				Schema: result.Schema, Started: st, Ended: st.Add(time.Minute), DurationS: 60,
				Config:   result.RunConfig{URL: "http://127.0.0.1/eventListener/v7", RPS: 100, DurationS: 60, Labels: map[string]string{"build": b.name}},
				Requests: result.Requests{Scheduled: 6000, Sent: 6000, OK: 6000}, RPS: result.Rate{Target: 100, Achieved: 100 - 0.2*rng.Float64()},
				Latency: result.Summary{Count: 6000, Avg: p99 / 4, P50: p99 / 5, P95: p99 / 1.6, P99: p99, Max: p99 * 2},
			})
			names = append(names, b.name+"-"+string(rune('a'+k))+".json")
		}
	}
	gates, err := compare.ParseGates([]string{"p99<+10%"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := trend.Analyze(rs, trend.Options{By: "build", Names: names, Metrics: []string{"p99", "avg", "rps"}, Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTrendPage: one chart per metric over the runs, named by build,
// with the runs as points, the segment means as steps and a mark at
// each change labelled with its build; the changes and gates in tables.
func TestTrendPage(t *testing.T) {
	t.Parallel()
	a := historyAnalysis(t)
	var b bytes.Buffer
	if err := Trend(&b, a); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	charts := pageCharts(t, page)
	if len(charts) != 3 {
		t.Fatalf("%d charts, want one per metric (3)", len(charts))
	}
	p99 := charts[0]
	if p99.Axis != axisRuns || len(p99.XNames) != 12 || p99.XNames[6] != "1.11" || len(p99.XTicks) != 4 {
		t.Errorf("p99 axis %s, names %v, ticks %v", p99.Axis, p99.XNames, p99.XTicks)
	}
	if len(p99.Series) != 2 || !p99.Series[0].Points || !p99.Series[1].Span {
		t.Errorf("p99 series %+v, want the runs as points and the segment means spanning", p99.Series)
	}
	if len(p99.Marks) != 2 || p99.Marks[0].X != 5.5 || !strings.HasPrefix(p99.Marks[0].Label, "1.11 +") || !strings.HasPrefix(p99.Marks[1].Label, "1.12 -") {
		t.Errorf("p99 marks %+v, want 1.11 at 5.5 and 1.12 at 8.5", p99.Marks)
	}
	if rps := charts[2]; len(rps.Marks) != 0 {
		t.Errorf("rps marks %+v, want none", rps.Marks)
	}
	// The changes table writes the relative change and the p-value as
	// every other rendering does (html/template escapes "+" and "<").
	esc := strings.NewReplacer("+", "&#43;", "<", "&lt;").Replace
	rel := `<td class="num">` + esc(format.Shift(a.Series[0].Changes[0].DeltaPct)) + `</td>`
	p := `<td class="num">` + esc(format.PValue(a.Series[0].Changes[0].P)) + `</td>`
	for _, want := range []string{`<td class="worse">worse</td>`, `<td class="better">better</td>`, "PASS", "1.12 vs 1.11", rel, p,
		`<td class="nowrap">2026-11-01 02:00:00 UTC</td>`,
		`<td class="num worse">` + esc(a.Series[0].Changes[0].Short()) + `</td>`, `<td class="num better">` + esc(a.Series[0].Changes[1].Short()) + `</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
