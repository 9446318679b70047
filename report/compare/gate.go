package compare

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/report/threshold"
)

// ToleranceKind says how a gate's tolerance is measured against the
// baseline.
type ToleranceKind int

// The tolerances of the gate grammar.
const (
	// Relative is "+N%": a share of the baseline's figure.
	Relative ToleranceKind = iota
	// Absolute is "+Nms" (or the metric's own unit): a fixed amount.
	Absolute
	// Points is "+Npp": percentage points of a rate, so that an error
	// rate of 0 % may become 0.5 % although that is "+inf %".
	Points
)

// Gate is one parsed regression gate: how much worse than the baseline
// a metric may get before CI fails. The metric names are the threshold
// grammar's (report/threshold); the value is a tolerance relative to
// the baseline instead of a limit.
//
//	gate      = METRIC OP SIGN VALUE UNIT
//	OP SIGN   = "<" "+" | "<=" "+"     metrics that get worse upwards
//	          | ">" "-" | ">=" "-"     metrics that get worse downwards (rps, ok, sent, …)
//	UNIT      = "%"                    of the baseline's figure
//	          | "pp"                   percentage points (error_rate and other percentages)
//	          | a unit of the metric   ms, us, s, m for times; none, /s or bytes otherwise
//
// "mean" is accepted for avg. Examples: "p99<+10%", "error_rate<+0.5pp",
// "mean<+2ms", "rps>-5%".
type Gate struct {
	// Expr is the expression as written, trimmed.
	Expr string
	// Metric is the canonical threshold name (p99, error_rate, rps, …).
	Metric string
	// Op is <, <=, > or >=.
	Op string
	// Better is the metric's direction: which way is an improvement.
	Better Direction
	// Tol is the tolerance's magnitude in its kind: percent for
	// Relative, the metric's unit for Absolute, points for Points.
	Tol  float64
	Kind ToleranceKind
	// Unit is the metric's unit (ms, %, /s, B or empty).
	Unit    string
	measure threshold.Measure
}

// said is text of a message already clipped: ParseGate's fail does not
// clip it again.
type said string

// GateError is a gate that does not parse, with the 1-based column (in
// characters) of the mistake.
type GateError struct {
	Expr   string
	Column int
	Msg    string
}

// Error formats the mistake as one line, like the threshold grammar's,
// the expression clipped as its are (threshold.Clip).
func (e *GateError) Error() string {
	return fmt.Sprintf("gate %s: column %d: %s", threshold.QuoteClipped(e.Expr), e.Column, e.Msg)
}

// Better is the way metric name (a threshold name, e.g. p99, rps)
// improves, as the registry declares it; a gate and a history's change
// points judge by it. A name that is no metric gets lower-is-better.
func Better(name string) Direction {
	m, _ := metric.Lookup(name)
	return direction(m)
}

// ParseGate reads one regression gate (see Gate for the grammar). Errors
// are *GateError.
func ParseGate(expr string) (Gate, error) {
	rs := []rune(expr)
	i := 0
	fail := func(at int, format string, args ...any) (Gate, error) {
		for i, a := range args {
			if s, ok := a.(string); ok {
				args[i] = threshold.Clip(s)
			}
		}
		return Gate{}, &GateError{Expr: expr, Column: at + 1, Msg: fmt.Sprintf(format, args...)}
	}
	take := func(ok func(rune) bool) string {
		start := i
		for i < len(rs) && ok(rs[i]) {
			i++
		}
		return string(rs[start:i])
	}
	space := func() { take(unicode.IsSpace) }
	// found is what stands at i, quoted and clipped: a said, which fail
	// passes on as it is.
	found := func() said {
		if i >= len(rs) {
			return "end of expression"
		}
		return said(strconv.Quote(threshold.Clip(string(rs[i:]))))
	}
	space()
	if i >= len(rs) {
		return fail(i, "empty gate (want METRIC OP TOLERANCE, e.g. p99<+10%%)")
	}
	nameAt := i
	name := strings.ToLower(take(func(r rune) bool {
		return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.()", r))
	}))
	if name == "" {
		return fail(nameAt, "expected a metric name such as p99 or error_rate, found %s", found())
	}
	if name == "mean" {
		name = metric.Avg
	}
	m, err := threshold.LookupMeasure(name)
	if err != nil {
		at, msg := 0, err.Error()
		if me, ok := errors.AsType[*threshold.MeasureError](err); ok {
			at = me.Offset
		}
		return fail(nameAt+at, "%s", said(msg))
	}
	g := Gate{Metric: m.Name(), Better: direction(m.Metric()), Unit: m.Unit(), measure: m}
	space()
	opAt := i
	g.Op = take(func(r rune) bool { return strings.ContainsRune("<>=!", r) })
	want := "<"
	sign := '+'
	if g.Better == HigherIsBetter {
		want, sign = ">", '-'
	}
	switch g.Op {
	case want, want + "=":
	case "":
		return fail(opAt, "expected %s or %s= after %q, found %s", want, want, name, found())
	default:
		return fail(opAt, "operator %q does not fit %s: it gets worse %s, so write %s%s%cN%% (at most N%% worse than the baseline)",
			g.Op, g.Metric, worseWay(g.Better), name, want, sign)
	}
	space()
	if i >= len(rs) || rs[i] != sign {
		return fail(i, "expected %q and a tolerance after %q, found %s: a gate is relative to the baseline (%s%s%c10%%); absolute limits are --threshold's",
			sign, g.Op, found(), name, want, sign)
	}
	i++
	space()
	numAt := i
	num := take(func(r rune) bool { return (r >= '0' && r <= '9') || r == '.' })
	if num == "" || strings.Count(num, ".") > 1 || strings.HasSuffix(num, ".") {
		return fail(numAt, "expected a number after %q, found %s", string(sign), found())
	}
	space()
	unitAt := i
	unit := take(func(r rune) bool { return !unicode.IsSpace(r) })
	space()
	if i < len(rs) {
		return fail(i, "unexpected %s after the tolerance", found())
	}
	v, perr := strconv.ParseFloat(num, 64)
	if perr != nil {
		return fail(numAt, "number %s is out of range", num)
	}
	switch {
	case unit == "%":
		g.Kind, g.Tol = Relative, v
	case unit == "pp" && m.IsPercent():
		g.Kind, g.Tol = Points, v
	case unit == "pp":
		return fail(unitAt, "pp (percentage points) fits percentages such as error_rate, not %s (want %%%s)", g.Metric, absoluteUnits(m))
	case m.IsPercent() && unit == "":
		return fail(numAt, "give a unit: +%spp (percentage points: a baseline of 1%% may become %s%%) or +%s%% (of the baseline: 1%% may become %s%%)",
			num, strconv.FormatFloat(1+v, 'g', 6, 64), num, strconv.FormatFloat(1+v/100, 'g', 6, 64))
	case m.IsPercent():
		return fail(unitAt, "unknown unit %q for %s (want %% of the baseline or pp, percentage points)", unit, g.Metric)
	default:
		abs, aerr := m.Absolute(num, unit)
		if aerr != nil {
			return fail(unitAt, "%v (or %% of the baseline)", aerr)
		}
		g.Kind, g.Tol = Absolute, abs
	}
	g.Expr = strings.TrimSpace(expr)
	return g, nil
}

func worseWay(d Direction) string {
	if d == HigherIsBetter {
		return "downwards"
	}
	return "upwards"
}

// absoluteUnits lists, for a message, the absolute units besides "%".
func absoluteUnits(m threshold.Measure) string {
	if m.IsLatency() {
		return " or ms, us, s, m"
	}
	if m.Unit() != "" {
		return " or " + m.Unit()
	}
	return " or none (an absolute count)"
}

// ParseGates parses every expression and stops at the first error.
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

// Tolerance formats the allowed change as written in the grammar's
// canonical form: "+10%", "+2ms", "+0.5pp", "-5%".
func (g Gate) Tolerance() string {
	sign := "+"
	if g.Better == HigherIsBetter {
		sign = "-"
	}
	return sign + strconv.FormatFloat(g.Tol, 'f', -1, 64) + g.kindUnit()
}

// kindUnit is the unit a change is measured in for this gate.
func (g Gate) kindUnit() string {
	switch g.Kind {
	case Relative:
		return "%"
	case Points:
		return "pp"
	}
	return g.Unit
}

// Within reports whether a change (from Change) stays inside the
// tolerance.
func (g Gate) Within(change float64) bool {
	switch g.Op {
	case "<":
		return change < g.Tol
	case "<=":
		return change <= g.Tol
	case ">":
		return change > -g.Tol
	}
	return change >= -g.Tol
}
