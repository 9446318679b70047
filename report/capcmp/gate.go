package capcmp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/compare"
)

// Gate is a capacity gate in compare's gate grammar: "capacity>-10%"
// holds while B's capacity is at least 90 % of A's. Capacity gets worse
// downwards, so its operator is > or >= and its tolerance a negative
// share of the baseline.
type Gate struct {
	Expr string
	// Op is > or >=; TolPct the tolerance's magnitude in percent.
	Op     string
	TolPct float64
}

// ParseGate reads one capacity gate; anything else, including the run
// metrics' gates, which a capacity document cannot judge, is an error
// of one line naming it.
func ParseGate(expr string) (Gate, error) {
	s := strings.TrimSpace(expr)
	rest, ok := strings.CutPrefix(s, "capacity")
	if !ok {
		return Gate{}, fmt.Errorf("gate %q: capacity documents are gated by capacity only, e.g. 'capacity>-10%%'", expr)
	}
	rest = strings.TrimSpace(rest)
	g := Gate{Expr: s, Op: ">"}
	if r, ok := strings.CutPrefix(rest, ">="); ok {
		g.Op, rest = ">=", r
	} else if r, ok := strings.CutPrefix(rest, ">"); ok {
		rest = r
	} else {
		return Gate{}, fmt.Errorf("gate %q: capacity gets worse downwards: want > or >= and a tolerance such as -10%%", expr)
	}
	rest = strings.TrimSpace(rest)
	num, ok := strings.CutSuffix(rest, "%")
	if !ok || !strings.HasPrefix(num, "-") {
		return Gate{}, fmt.Errorf("gate %q: want a tolerance in percent of the baseline with its sign, e.g. -10%%", expr)
	}
	v, err := strconv.ParseFloat(strings.TrimPrefix(num, "-"), 64)
	if err != nil || v < 0 || v >= 100 {
		return Gate{}, fmt.Errorf("gate %q: tolerance %q: want a number from 0 to below 100", expr, num+"%")
	}
	g.TolPct = v
	return g, nil
}

// ParseGates reads every gate; the first bad one stops it.
func ParseGates(exprs []string) ([]Gate, error) {
	out := make([]Gate, 0, len(exprs))
	for _, e := range exprs {
		g, err := ParseGate(e)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// GateResult is one gate's verdict: compare's outcomes (pass, fail,
// undecided) and whether it passes once --gate-undecided is applied.
type GateResult struct {
	Expr    string          `json:"gate"`
	Outcome compare.Outcome `json:"outcome"`
	Passed  bool            `json:"passed"`
	// Floor is the lowest mean capacity of B the gate allows.
	Floor float64 `json:"floor_rps"`
	// Generator says that the verdict rests on a limit the generator
	// hit, on either side, so that it tells nothing of the target.
	Generator bool   `json:"decided_on_generator,omitempty"`
	Reason    string `json:"reason"`
}

// judge decides one gate: it fails when B's capacity is below the floor
// and the difference is beyond the precision; below the floor but within
// the precision, limited by the generator on either side, or against a
// baseline that held no rate, it is undecided and --gate-undecided
// applies.
func (c *Comparison) judge(g Gate, undecided compare.Undecided) GateResult {
	floor := c.A.Mean * (1 - g.TolPct/100)
	r := GateResult{Expr: g.Expr, Floor: floor, Generator: c.A.Generator() || c.B.Generator()}
	below := c.B.Mean < floor || (g.Op == ">" && c.B.Mean == floor)
	switch {
	case c.A.Mean <= 0:
		// Nothing to hold B to: a baseline that held no rate would let
		// any B, none too, pass a relative gate.
		r.Outcome = compare.GateUndecided
		r.Reason = fmt.Sprintf("%s held no rate: a share of it decides nothing", c.A.Name)
	case r.Generator:
		r.Outcome = compare.GateUndecided
		r.Reason = fmt.Sprintf("decided on a generator's limit: %s", generatorNote(c.A, c.B))
	case !below:
		r.Outcome = compare.GatePass
		r.Reason = fmt.Sprintf("%s holds %s/s, at least %s/s (%s%% of %s's %s/s)", c.B.Name, Rate(c.B.Mean), Rate(floor), pct(100-g.TolPct), c.A.Name, Rate(c.A.Mean))
	case !c.Real:
		r.Outcome = compare.GateUndecided
		r.Reason = fmt.Sprintf("%s holds %s/s, below %s/s, but within the searches' precision (the intervals overlap)", c.B.Name, Rate(c.B.Mean), Rate(floor))
	default:
		r.Outcome = compare.GateFail
		r.Reason = fmt.Sprintf("%s holds %s/s, below %s/s (%s%% of %s's %s/s), beyond the precision", c.B.Name, Rate(c.B.Mean), Rate(floor), pct(100-g.TolPct), c.A.Name, Rate(c.A.Mean))
	}
	r.Passed = r.Outcome == compare.GatePass || (r.Outcome == compare.GateUndecided && undecided == compare.UndecidedPass)
	return r
}

// Passed reports whether every gate passed.
func (c *Comparison) Passed() bool {
	for _, g := range c.Gates {
		if !g.Passed {
			return false
		}
	}
	return true
}

// GateLines are one line per gate, as the text rendering and stderr say
// them.
func (c *Comparison) GateLines() []string {
	var out []string
	for _, g := range c.Gates {
		out = append(out, fmt.Sprintf("gate %s: %s: %s", g.Expr, g.Status(), g.Reason))
	}
	return out
}

// Status is the gate's word: PASS or FAIL once --gate-undecided is
// applied, "(undecided)" after it when the figures did not decide, so
// that every rendering of a gate says it alike.
func (g GateResult) Status() string {
	word := "PASS"
	if !g.Passed {
		word = "FAIL"
	}
	if g.Outcome == compare.GateUndecided {
		word += " (undecided)"
	}
	return word
}
