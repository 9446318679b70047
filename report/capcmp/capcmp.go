package capcmp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// Side is one side of a capacity comparison: its searches' figures.
type Side struct {
	Name  string   `json:"name"`
	Files []string `json:"files"`
	// MaxRPS is each search's highest passing rate, in file order; Mean,
	// Min and Max summarise them.
	MaxRPS []float64 `json:"max_rps"`
	Mean   float64   `json:"mean_rps"`
	Min    float64   `json:"min_rps"`
	Max    float64   `json:"max_rps_highest"`
	// Low and High bound the side's capacity: the lowest passing rate
	// and the highest lowest-fail over its searches (High is +Inf, JSON
	// null, when a search never failed).
	Low  float64  `json:"low_rps"`
	High *float64 `json:"high_rps"`
	// PrecisionPct is the widest precision of its searches.
	PrecisionPct float64 `json:"precision_pct"`
	// LimitedBy is who the searches' failing steps are laid to, each
	// once, in the order met ("target", "generator").
	LimitedBy []string `json:"limited_by"`
	// Unconfirmed counts the searches whose boundary did not keep its
	// verdicts.
	Unconfirmed int `json:"unconfirmed,omitempty"`
}

// high is the side's upper bound, +Inf when a search never failed.
func (s Side) high() float64 {
	if s.High == nil {
		return math.Inf(1)
	}
	return *s.High
}

// Generator reports whether a search of the side was limited by the
// generator.
func (s Side) Generator() bool { return slices.Contains(s.LimitedBy, result.CauseGenerator) }

// newSide summarises the searches of one side.
func newSide(name string, files []string, docs []*result.CapacityDocument) Side {
	s := Side{Name: name, Files: files, Min: math.Inf(1), Low: math.Inf(1), LimitedBy: []string{}}
	high, open := 0.0, false
	for _, d := range docs {
		c := d.Capacity
		s.MaxRPS = append(s.MaxRPS, c.MaxRPS)
		s.Mean += c.MaxRPS / float64(len(docs))
		s.Min, s.Max, s.Low = min(s.Min, c.MaxRPS), max(s.Max, c.MaxRPS), min(s.Low, c.MaxRPS)
		if c.FailRPS > 0 {
			high = max(high, c.FailRPS)
		} else {
			open = true
		}
		s.PrecisionPct = max(s.PrecisionPct, c.PrecisionPct)
		if c.LimitedBy != "" && !slices.Contains(s.LimitedBy, c.LimitedBy) {
			s.LimitedBy = append(s.LimitedBy, c.LimitedBy)
		}
		if !c.Confirmed {
			s.Unconfirmed++
		}
	}
	if !open {
		s.High = &high
	}
	return s
}

// Comparison is two sides' capacities: B against the baseline A.
type Comparison struct {
	A Side `json:"a"`
	B Side `json:"b"`
	// ChangePct is B's mean capacity against A's, in percent of A's.
	ChangePct float64 `json:"change_pct"`
	// Real says that the difference is beyond the searches' precision:
	// the sides' intervals [low, high) do not overlap.
	Real bool `json:"beyond_precision"`
	// Verdict is the one line that says it.
	Verdict string       `json:"verdict"`
	Gates   []GateResult `json:"gates,omitempty"`
}

// ErrNoDocuments is a side without capacity documents.
var ErrNoDocuments = errors.New("want capacity documents on both sides of --vs")

// Compare compares the capacity documents of side B with those of the
// baseline A and judges the gates.
func Compare(nameA, nameB string, filesA, filesB []string, a, b []*result.CapacityDocument, gates []Gate, undecided compare.Undecided) (*Comparison, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, ErrNoDocuments
	}
	c := &Comparison{A: newSide(orName(nameA, "A"), filesA, a), B: newSide(orName(nameB, "B"), filesB, b)}
	if c.A.Mean > 0 {
		c.ChangePct = (c.B.Mean - c.A.Mean) / c.A.Mean * 100
	}
	c.Real = c.A.high() <= c.B.Low || c.B.high() <= c.A.Low
	c.Verdict = c.verdict()
	for _, g := range gates {
		c.Gates = append(c.Gates, c.judge(g, undecided))
	}
	return c, nil
}

func orName(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// verdict is the comparison's line: each side's capacity and whether
// they differ beyond the precision.
func (c *Comparison) verdict() string {
	line := fmt.Sprintf("%s holds %s, %s %s", c.A.Name, c.A.holds(), c.B.Name, c.B.holds())
	switch {
	case c.Real && c.ChangePct < 0:
		line += fmt.Sprintf(": %s holds less (%+.1f %%), beyond the precision", c.B.Name, c.ChangePct)
	case c.Real:
		line += fmt.Sprintf(": %s holds more (%+.1f %%), beyond the precision", c.B.Name, c.ChangePct)
	default:
		line += fmt.Sprintf(": no difference beyond the precision (%+.1f %%, the intervals overlap)", c.ChangePct)
	}
	if c.A.Generator() || c.B.Generator() {
		line += "; " + generatorNote(c.A, c.B)
	}
	return line
}

// holds is a side's capacity with its precision, or "at least" when a
// search of it never failed.
func (s Side) holds() string {
	if s.High == nil {
		return "at least " + Rate(s.Mean) + "/s (a search never failed)"
	}
	return fmt.Sprintf("%s/s (±%s %%)", Rate(s.Mean), pct(s.PrecisionPct))
}

// generatorNote names the sides limited by the generator.
func generatorNote(a, b Side) string {
	var names []string
	for _, s := range []Side{a, b} {
		if s.Generator() {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, " and ") + ": limited by the generator, not the target (add shards: vesload kube)"
}

// Rate formats a rate as the tables do: whole requests per second with
// thousands separated by commas, e.g. 2,300.
func Rate(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// pct formats a precision in percent without trailing zeros.
func pct(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
