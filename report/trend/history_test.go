package trend

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// regressedThenFixed is 1.9 and 1.10 at 20 ms, 1.11 at 30 ms and 1.12
// back at 20 ms, three runs each.
func regressedThenFixed() ([]*result.Result, []string) {
	return history(
		build{"1.9", steady(1, 3, 20)}, build{"1.10", steady(2, 3, 20)},
		build{"1.11", steady(3, 3, 30)}, build{"1.12", steady(4, 3, 20)})
}

func shuffled(rs []*result.Result, names []string) ([]*result.Result, []string) {
	rng := rand.New(rand.NewPCG(5, 5))
	rs, names = append([]*result.Result(nil), rs...), append([]string(nil), names...)
	rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j], names[i], names[j] = rs[j], rs[i], names[j], names[i] })
	return rs, names
}

func seriesOf(t *testing.T, a *Analysis, metric string) Series {
	t.Helper()
	for _, s := range a.Series {
		if s.Metric == metric {
			return s
		}
	}
	t.Fatalf("no series %s", metric)
	return Series{}
}

// TestAnalyzeFindsAndNamesChanges: runs given in any order are ordered
// by build in natural version order (1.9 before 1.10), and p99's
// regression at 1.11 and fix at 1.12 are found and named, with the
// means on either side and the direction.
func TestAnalyzeFindsAndNamesChanges(t *testing.T) {
	t.Parallel()
	rs, names := shuffled(regressedThenFixed())
	a, err := Analyze(rs, Options{By: "build", Names: names, Metrics: []string{"p99", "rps"}})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range a.Runs {
		order = append(order, r.Build)
	}
	if got := strings.Join(order, " "); got != "1.9 1.9 1.9 1.10 1.10 1.10 1.11 1.11 1.11 1.12 1.12 1.12" {
		t.Errorf("order %s", got)
	}
	p99 := seriesOf(t, a, "p99")
	if len(p99.Changes) != 2 {
		t.Fatalf("p99 changes %+v, want 2", p99.Changes)
	}
	up, down := p99.Changes[0], p99.Changes[1]
	if up.Build != "1.11" || !up.Worse || up.DeltaPct < 40 || up.DeltaPct > 60 || up.P >= 0.05 {
		t.Errorf("first change %+v, want 1.11, about +50 %% worse, significant", up)
	}
	if down.Build != "1.12" || !down.Better || down.DeltaPct > -25 || down.DeltaPct < -40 {
		t.Errorf("second change %+v, want 1.12, about -33 %% better", down)
	}
	if rps := seriesOf(t, a, "rps"); len(rps.Changes) != 0 {
		t.Errorf("rps changes %+v, want none", rps.Changes)
	}
}

// TestAnalyzeRefuses: a run without the --by label, a history of one
// run, an unknown metric and a different scenario are refused; --force
// analyses the last with a note.
func TestAnalyzeRefuses(t *testing.T) {
	t.Parallel()
	rs, names := regressedThenFixed()
	noLabel := append([]*result.Result(nil), rs...)
	bare := *noLabel[4]
	bare.Config.Labels = nil
	noLabel[4] = &bare
	if _, err := Analyze(noLabel, Options{By: "build", Names: names}); err == nil || !strings.Contains(err.Error(), names[4]+` has no label "build"`) {
		t.Errorf("unlabelled run: %v", err)
	}
	if _, err := Analyze(rs, Options{By: "biuld", Names: names}); err == nil || err.Error() != names[0]+` has no label "biuld": did you mean --by build?` {
		t.Errorf("misspelt label: %v", err)
	}
	if _, err := Analyze(rs, Options{Metrics: []string{"erorr_rate"}}); err == nil || !strings.HasSuffix(err.Error(), `unknown metric "erorr_rate": did you mean error_rate?`) {
		t.Errorf("misspelt metric: %v", err)
	}
	if _, err := Analyze(rs[:1], Options{}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one run: %v", err)
	}
	if _, err := Analyze(rs, Options{Metrics: []string{"p98"}}); err == nil || !strings.Contains(err.Error(), `metric "p98"`) {
		t.Errorf("unknown metric: %v", err)
	}
	other := append([]*result.Result(nil), rs...)
	faster := *other[7]
	faster.Config.RPS = 200
	other[7] = &faster
	var mm *compare.MismatchError
	if _, err := Analyze(other, Options{Names: names}); !errors.As(err, &mm) || mm.Field != "rps" || mm.RunB != names[7] {
		t.Errorf("other rate: %v", err)
	}
	a, err := Analyze(other, Options{Names: names, Force: true})
	if err != nil || len(a.Notes) == 0 || !strings.Contains(a.Notes[0], "analysed although config differs in rps") {
		t.Errorf("forced: %v, notes %v", err, a.Notes)
	}
}

// TestAnalyzeMissingFigure: a metric asked for that a run lacks is left
// out with a note naming the run, one no run carries is left out
// silently when none was asked for, and a gate on a figure a run lacks
// fails, naming the run: it cannot pass unchecked.
func TestAnalyzeMissingFigure(t *testing.T) {
	t.Parallel()
	rs, names := regressedThenFixed()
	asked, err := Analyze(rs, Options{By: "build", Names: names, Metrics: []string{"p99", "target_cpu_avg"},
		Gates: gates(t, "target_cpu_avg<+10%")})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked.Series) != 1 || asked.Series[0].Metric != "p99" {
		t.Errorf("series %+v, want p99 alone", asked.Series)
	}
	if len(asked.Notes) != 1 || !strings.HasPrefix(asked.Notes[0], "not analysed: target_cpu_avg ("+names[0]+": ") {
		t.Errorf("notes %q, want target_cpu_avg not analysed, naming %s", asked.Notes, names[0])
	}
	if v := asked.Gates.Verdicts[0]; v.Pass || v.Outcome != compare.GateFail || !strings.HasPrefix(v.Note, names[0]+": ") {
		t.Errorf("gate on a missing figure: %+v, want a failure naming %s", v, names[0])
	}
	quiet, err := Analyze(rs, Options{By: "build", Names: names})
	if err != nil {
		t.Fatal(err)
	}
	if len(quiet.Notes) != 0 {
		t.Errorf("default metrics: notes %q, want none for figures no run carries", quiet.Notes)
	}
}

func gates(t *testing.T, exprs ...string) []compare.Gate {
	t.Helper()
	gs, err := compare.ParseGates(exprs)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestGates: the gate fails on the history whose newest build regressed
// and passes on the one whose newest build is the fix; a regression
// within the tolerance passes; a newest build of one run that looks
// worse is undecided, which the policy turns into fail or pass; a
// metric the runs lack fails; a metric gated but not in the table is
// judged on change points of its own.
func TestGates(t *testing.T) {
	t.Parallel()
	rs, names := regressedThenFixed()
	one, oneNames := history(build{"1.9", steady(1, 3, 20)}, build{"1.10", steady(2, 3, 20)}, build{"1.11", []float64{30}})
	for _, c := range []struct {
		name      string
		n         int // runs of the history
		rs        []*result.Result
		gate      string
		undecided compare.Undecided
		outcome   compare.Outcome
		pass      bool
		sides     Sides
	}{
		{"regressed", 9, rs, "p99<+10%", "", compare.GateFail, false, Sides{"1.9–1.10", "1.11"}},
		{"fixed", 12, rs, "p99<+10%", "", compare.GatePass, true, Sides{"1.11", "1.12"}},
		{"within the tolerance", 9, rs, "p99<+60%", "", compare.GatePass, true, Sides{"1.9–1.10", "1.11"}},
		{"absolute", 9, rs, "p99<+5ms", "", compare.GateFail, false, Sides{"1.9–1.10", "1.11"}},
		{"steady", 6, rs, "p99<+10%", "", compare.GatePass, true, Sides{"1.9", "1.10"}},
		{"one run, fail", 7, one, "p99<+10%", compare.UndecidedFail, compare.GateUndecided, false, Sides{"1.9–1.10", "1.11"}},
		{"one run, pass", 7, one, "p99<+10%", compare.UndecidedPass, compare.GateUndecided, true, Sides{"1.9–1.10", "1.11"}},
		{"one run, within", 7, one, "p99<+60%", compare.UndecidedFail, compare.GatePass, true, Sides{"1.9–1.10", "1.11"}},
		{"missing metric", 9, rs, "target_cpu_avg<+10%", "", compare.GateFail, false, Sides{}},
		{"a metric only gated", 9, rs, "avg<+10%", "", compare.GateFail, false, Sides{"1.9–1.10", "1.11"}},
		{"a metric only gated, fixed", 12, rs, "avg<+10%", "", compare.GatePass, true, Sides{"1.11", "1.12"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			nm := names
			if c.rs[0] == one[0] {
				nm = oneNames
			}
			a, err := Analyze(c.rs[:c.n], Options{By: "build", Names: nm[:c.n], Metrics: []string{"p99"}, Gates: gates(t, c.gate), Undecided: c.undecided})
			if err != nil {
				t.Fatal(err)
			}
			v := a.Gates.Verdicts[0]
			if v.Outcome != c.outcome || v.Pass != c.pass {
				t.Errorf("outcome %s, pass %v (%s), want %s, %v", v.Outcome, v.Pass, v.Sentence("A", "B", 0.05), c.outcome, c.pass)
			}
			if c.sides.B != "" && a.GateSides[0] != c.sides {
				t.Errorf("compared %+v, want %+v", a.GateSides[0], c.sides)
			}
		})
	}
}

// TestRenderings: the text, Markdown, JSON and JUnit renderings of a
// history with a regression, a fix and two gates.
func TestRenderings(t *testing.T) {
	t.Parallel()
	rs, names := regressedThenFixed()
	a, err := Analyze(rs, Options{By: "build", Names: names, Metrics: []string{"p99", "avg", "error_rate"}, Gates: gates(t, "p99<+10%", "error_rate<+0.5pp")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file   string
		render func(*bytes.Buffer) error
	}{
		{"history.txt", func(b *bytes.Buffer) error { return Text(b, a) }},
		{"history.md", func(b *bytes.Buffer) error { return Markdown(b, a) }},
		{"history.json", func(b *bytes.Buffer) error { return JSON(b, a) }},
		{"history.xml", func(b *bytes.Buffer) error { return JUnit(b, a) }},
	} {
		var b bytes.Buffer
		if err := c.render(&b); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		golden.Check(t, "testdata/"+c.file, b.Bytes())
	}
	if err := JUnit(&bytes.Buffer{}, &Analysis{}); err == nil {
		t.Error("JUnit without gates did not fail")
	}
}
