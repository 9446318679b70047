package threshold

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Op is a comparison operator, spelled as in expressions.
type Op string

// The operators of the grammar.
const (
	LT Op = "<"
	LE Op = "<="
	GT Op = ">"
	GE Op = ">="
	EQ Op = "=="
	NE Op = "!="
)

// holds reports whether "measured op limit" is true.
func (o Op) holds(measured, limit float64) bool {
	switch o {
	case LT:
		return measured < limit
	case LE:
		return measured <= limit
	case GT:
		return measured > limit
	case GE:
		return measured >= limit
	case EQ:
		return measured == limit
	case NE:
		return measured != limit
	}
	return false
}

func parseOp(s string) (Op, bool) {
	switch o := Op(s); o {
	case LT, LE, GT, GE, EQ, NE:
		return o, true
	}
	return "", false
}

// Threshold is one parsed gate. Value is in the metric's natural unit
// (ms for latency, % for percentages and the error rate, bytes for
// memory), whatever unit the expression used.
type Threshold struct {
	// Expr is the expression as written, trimmed: it is what reports show
	// so that people recognise their own gate.
	Expr string
	// Metric is the canonical metric name (p999 for p(99.9), …).
	Metric string
	Op     Op
	Value  float64
}

// String returns the canonical form of the gate: canonical metric name,
// operator and the value in the metric's natural unit, e.g. "p99<500ms".
// Parsing it gives back the same Metric, Op and Value.
func (t Threshold) String() string {
	u := ""
	if m, err := resolve(t.Metric); err == nil {
		u = canonicalUnit(m)
	}
	return t.Metric + string(t.Op) + strconv.FormatFloat(t.Value, 'f', -1, 64) + u
}

// ParseError is a threshold that does not parse. Column is 1-based and
// counts characters, so that it matches what an editor or terminal shows.
type ParseError struct {
	Expr   string
	Column int
	Msg    string
}

// Error formats the mistake as one line: the expression (clipped, see
// Clip), the column and what was expected.
func (e *ParseError) Error() string {
	return fmt.Sprintf("threshold %s: column %d: %s", QuoteClipped(e.Expr), e.Column, e.Msg)
}

// clipRunes is how much of a user's text an error line echoes.
const clipRunes = 60

// Clip shortens text a user gave to what an error line may echo: its
// first 60 characters and "…". A 100 KB expression must not make a
// 200 KB error line, and the column still says where the mistake is.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= clipRunes {
		return s
	}
	return string([]rune(s)[:clipRunes]) + "…"
}

// QuoteClipped quotes s as %q does, clipped (Clip), with its length in
// characters when it was clipped.
func QuoteClipped(s string) string {
	c := Clip(s)
	if c == s {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%q (%d characters)", c, utf8.RuneCountInString(s))
}

// parser walks an expression rune by rune so that columns are counted in
// characters, not bytes.
type parser struct {
	expr string
	rs   []rune
	i    int
}

// fail reports a mistake at rune at; the text it quotes of the
// expression is clipped (Clip).
func (p *parser) fail(at int, format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = Clip(s)
		}
	}
	return p.failMsg(at, fmt.Sprintf(format, args...))
}

// failMsg reports a mistake at rune at in words that echo no more of the
// expression than Clip lets through.
func (p *parser) failMsg(at int, msg string) error {
	return &ParseError{Expr: p.expr, Column: at + 1, Msg: msg}
}

func (p *parser) eof() bool { return p.i >= len(p.rs) }

func (p *parser) skipSpace() {
	for !p.eof() && unicode.IsSpace(p.rs[p.i]) {
		p.i++
	}
}

// take consumes the longest run of runes accepted by ok.
func (p *parser) take(ok func(rune) bool) string {
	start := p.i
	for !p.eof() && ok(p.rs[p.i]) {
		p.i++
	}
	return string(p.rs[start:p.i])
}

// quoted is text of the expression already quoted and clipped for a
// message: fail does not clip it again.
type quoted string

// found describes what stands at the current position, for messages.
func (p *parser) found() quoted {
	if p.eof() {
		return "end of expression"
	}
	end := p.i
	for end < len(p.rs) && !unicode.IsSpace(p.rs[end]) {
		end++
	}
	return quoted(strconv.Quote(Clip(string(p.rs[p.i:end]))))
}

func isMetricRune(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.()", r))
}

func isOpRune(r rune) bool { return strings.ContainsRune("<>=!", r) }

func isNumberRune(r rune) bool { return (r >= '0' && r <= '9') || r == '.' }

func notSpace(r rune) bool { return !unicode.IsSpace(r) }

// Parse reads one gate, METRIC OP VALUE[UNIT] (see the package
// documentation for the grammar and the metrics). Errors are
// *ParseError, naming the column of the mistake and what was expected.
func Parse(expr string) (Threshold, error) { return parse(expr, false) }

// ParseRecorded reads a gate as a result file recorded it: like Parse,
// but a rate written without its unit (error_rate<0.01) reads as the
// fraction that the releases which accepted it judged it as, so that a
// result written by one of them is judged again (merge) as it was.
func ParseRecorded(expr string) (Threshold, error) { return parse(expr, true) }

func parse(expr string, recorded bool) (Threshold, error) {
	p := &parser{expr: expr, rs: []rune(expr)}
	p.skipSpace()
	if p.eof() {
		return Threshold{}, p.fail(p.i, "empty threshold (want METRIC OP VALUE, e.g. p99<500ms)")
	}
	metricAt := p.i
	name := strings.ToLower(p.take(isMetricRune))
	if name == "" {
		return Threshold{}, p.fail(metricAt, "expected a metric name such as p99 or error_rate, found %s", p.found())
	}
	m, nerr := resolve(name)
	if nerr != nil {
		return Threshold{}, p.failMsg(metricAt+nerr.offset, nerr.msg)
	}
	p.skipSpace()
	opAt := p.i
	opText := p.take(isOpRune)
	if opText == "" {
		return Threshold{}, p.fail(opAt, "expected an operator (<, <=, >, >=, ==, !=) after %q, found %s", name, p.found())
	}
	op, ok := parseOp(opText)
	if !ok {
		return Threshold{}, p.fail(opAt, "unknown operator %q (want <, <=, >, >=, ==, !=)", opText)
	}
	p.skipSpace()
	numAt := p.i
	num := p.take(isNumberRune)
	if num == "" {
		return Threshold{}, p.fail(numAt, "expected a non-negative number after %q, found %s", opText, p.found())
	}
	if !validNumber(num) {
		return Threshold{}, p.fail(numAt, "invalid number %q (want digits with at most one decimal point, e.g. 0.5)", num)
	}
	p.skipSpace()
	unitAt := p.i
	unitText := p.take(notSpace)
	p.skipSpace()
	if !p.eof() {
		return Threshold{}, p.fail(p.i, "unexpected %s after the value", p.found())
	}
	if utf8.RuneCountInString(unitText) > clipRunes { // longer than any unit
		return Threshold{}, p.fail(unitAt, "unknown unit %q", unitText)
	}
	value, err := convert(m, num, unitText, recorded)
	if err != nil {
		at := unitAt
		if err.atNumber {
			at = numAt
		}
		return Threshold{}, p.failMsg(at, err.msg)
	}
	return Threshold{Expr: strings.TrimSpace(expr), Metric: m.Name, Op: op, Value: value}, nil
}

// validNumber accepts digits with at most one decimal point and digits on
// both sides of it, or a leading point (".5").
func validNumber(s string) bool {
	intPart, frac, hasDot := strings.Cut(s, ".")
	if !hasDot {
		return intPart != ""
	}
	return frac != "" && !strings.Contains(frac, ".")
}

// ParseAll parses every expression and stops at the first error, which
// names the bad expression.
func ParseAll(exprs []string) ([]Threshold, error) { return parseAll(exprs, Parse) }

// ParseAllRecorded is ParseAll of the gates a result file recorded
// (ParseRecorded).
func ParseAllRecorded(exprs []string) ([]Threshold, error) { return parseAll(exprs, ParseRecorded) }

func parseAll(exprs []string, parse func(string) (Threshold, error)) ([]Threshold, error) {
	ts := make([]Threshold, 0, len(exprs))
	for _, e := range exprs {
		t, err := parse(e)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, nil
}
