package compare

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// gated adds gates to opts: two that fail, one beyond its tolerance
// but within the noise (the error rate: 0.17pp, p=0.42) and two within
// their tolerance.
func gated(t testing.TB, opts Options) Options {
	t.Helper()
	opts.Gates = mustGates(t, "p99<+10%", "error_rate<+0.1pp", "mean<+5%", "p50<+50%", "rps>-5%")
	return opts
}

// singleGated compares one run with one run under two gates.
func singleGated(t testing.TB, opts Options) *Comparison {
	t.Helper()
	opts.Gates = mustGates(t, "p99<+10%", "p50<+30%")
	c, err := Compare([]*result.Result{synth(t, runSpec{base: 10, seed: 1})},
		[]*result.Result{synth(t, runSpec{base: 12, seed: 2})}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGatesJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JSON(&b, slowerB(t, gated(t, Options{}))); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Gates struct {
			Passed bool `json:"passed"`
			Failed int  `json:"failed"`
			Gates  []struct {
				Expr      string   `json:"expr"`
				Outcome   string   `json:"outcome"`
				Pass      bool     `json:"pass"`
				Change    *float64 `json:"change"`
				PValue    *float64 `json:"p_value"`
				Tolerance string   `json:"tolerance"`
			} `json:"gates"`
		} `json:"gates"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	g := doc.Gates
	if g.Passed || g.Failed != 2 || len(g.Gates) != 5 {
		t.Fatalf("gates %+v, want 2 of 5 failed", g)
	}
	p99 := g.Gates[0]
	if p99.Expr != "p99<+10%" || p99.Outcome != "fail" || p99.Pass || p99.Change == nil || *p99.Change < 20 ||
		p99.PValue == nil || *p99.PValue >= 0.05 || p99.Tolerance != "+10%" {
		t.Errorf("p99 gate %+v", p99)
	}
	if er := g.Gates[1]; er.Outcome != "pass" || er.Change == nil || *er.Change <= 0.1 || er.PValue == nil || *er.PValue < 0.05 {
		t.Errorf("error rate gate %+v, want a pass at +0.17pp, beyond the tolerance but not significant", er)
	}

	b.Reset()
	if err := JSON(&b, slowerB(t, Options{})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"gates"`) {
		t.Error("a comparison without gates writes a gates object")
	}
}

// junitDoc is what a CI test view reads of JUnit XML.
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Suites  []struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestGatesJUnit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		c        *Comparison
		failures map[string][]string // failed case → words its message must hold
		passes   []string
	}{
		{"three runs a side", slowerB(t, gated(t, Options{})), map[string][]string{
			"p99<+10%": {"B vs A: +", "% worse", "p<0.001", "tolerance +10%"},
			"mean<+5%": {"% worse", "p<0.001", "tolerance +5%"},
		}, []string{"error_rate<+0.1pp", "p50<+50%", "rps>-5%"}},
		{"single runs", singleGated(t, Options{}), map[string][]string{
			"p99<+10%": {"cannot decide", "A has 1 run and B 1 run", "tolerance +10%"},
			"p50<+30%": {"cannot decide", "tolerance +30%"},
		}, nil},
		{"single runs, undecided passes", singleGated(t, Options{Undecided: UndecidedPass}), nil, []string{"p99<+10%", "p50<+30%"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := JUnit(&b, tc.c); err != nil {
				t.Fatal(err)
			}
			var doc junitDoc
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not XML: %v\n%s", err, b.String())
			}
			if len(doc.Suites) != 1 || doc.Suites[0].Tests != len(tc.failures)+len(tc.passes) || doc.Suites[0].Failures != len(tc.failures) {
				t.Fatalf("suites %+v", doc.Suites)
			}
			for _, c := range doc.Suites[0].Cases {
				words, failed := tc.failures[c.Name]
				if failed != (c.Failure != nil) {
					t.Errorf("case %q: failure %+v", c.Name, c.Failure)
					continue
				}
				for _, w := range words {
					if !strings.Contains(c.Failure.Message, w) {
						t.Errorf("case %q: message %q lacks %q", c.Name, c.Failure.Message, w)
					}
				}
			}
		})
	}
	if err := JUnit(new(bytes.Buffer), slowerB(t, Options{})); err == nil {
		t.Error("JUnit without gates wrote a report")
	}
}

// TestGatesSummary checks the lines that tell a log what the gates
// decided: the reason nothing could be decided, when so, then the
// headline.
func TestGatesSummary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		set  GateSet
		want []string
	}{
		{"passed", GateSet{Verdicts: []GateVerdict{{Outcome: GatePass, Pass: true}}}, []string{"gates: the gate passed"}},
		{"failed", GateSet{Verdicts: []GateVerdict{{Outcome: GateFail}, {Outcome: GatePass, Pass: true}}}, []string{"gates: 1 of 2 failed"}},
		{"cannot decide", GateSet{Limit: "too few runs", Verdicts: []GateVerdict{{Outcome: GateUndecided}}},
			[]string{"cannot decide: too few runs", "gates: 1 of 1 failed (1 undecided)"}},
	} {
		if got := c.set.Summary(); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: Summary() = %q, want %q", c.name, got, c.want)
		}
	}
}
