package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/vesload/vesload/report/result"
)

// Test names the significance test run on the per-run values.
type Test string

// The tests Compare offers.
const (
	// Welch is Welch's unequal-variances t-test: it assumes roughly
	// normal per-run figures and can decide with three runs a side.
	Welch Test = "welch"
	// UTest is the Mann-Whitney U test (benchstat's): it assumes nothing
	// about the distribution but cannot reach p < 0.05 with fewer than
	// four runs a side.
	UTest Test = "utest"
)

// Center names the statistic that summarises one side's runs.
type Center string

// The centres Compare offers; each comes with its own spread.
const (
	// Mean is shown with the sample standard deviation over the runs.
	Mean Center = "mean"
	// Median is shown with the range (min–max) over the runs.
	Median Center = "median"
)

// DefaultAlpha is the significance level of the verdicts.
const DefaultAlpha = 0.05

// Options tunes a comparison. The zero value compares with Welch's
// t-test and means at alpha 0.05, naming the sides A and B.
type Options struct {
	// NameA and NameB label the sides in every rendering (e.g. "dmaap",
	// "cambria").
	NameA, NameB string
	// Test is the significance test (default Welch).
	Test Test
	// Center is the per-side statistic (default Mean).
	Center Center
	// Alpha is the significance level (default 0.05).
	Alpha float64
	// Force compares runs whose configurations differ; the differences
	// are listed in the notes instead of refusing.
	Force bool
	// LabelsA and LabelsB name the individual runs (usually their file
	// names) in errors and notes; without them runs are "A run 1", ….
	LabelsA, LabelsB []string
	// Gates are the regression gates to decide (vesload compare --gate);
	// none leaves Comparison.Gates nil.
	Gates []Gate
	// Undecided is what a gate too few runs cannot decide means (default
	// fail).
	Undecided Undecided
}

// Comparison is the outcome of Compare: what the renderers print.
type Comparison struct {
	NameA, NameB string
	RunsA, RunsB int
	// LabelsA and LabelsB name each run (Options.LabelsA and LabelsB, or
	// "A run 1", …), for renderings that list the runs.
	LabelsA, LabelsB []string
	Test             Test
	Center           Center
	Alpha            float64
	// Rows are the compared metrics in a fixed order.
	Rows []Row
	// Distributions compares the merged latency distributions request by
	// request; it is filled only when a side has a single run, since the
	// per-run tests need at least two.
	Distributions []Distribution
	// Notes are the caveats a reader must see with the table.
	Notes []string
	// Gates are the verdicts of Options.Gates, nil without gates.
	Gates *GateSet
	// Warned are the inputs of either side that carry a warning of
	// their run, named in the notes too.
	Warned []Warned
}

// Direction says which way a metric improves.
type Direction int

// Directions of improvement.
const (
	Neutral        Direction = iota // no better or worse, only different
	LowerIsBetter                   // latency, errors, CPU
	HigherIsBetter                  // achieved rate
)

// Side is one metric over the runs of one side.
type Side struct {
	// Values holds the per-run figures in the order the runs were given.
	Values []float64
	// Center is the mean or the median of Values, per Options.Center.
	Center float64
	// StdDev is the sample standard deviation (0 for a single run).
	StdDev float64
	// Min and Max bound Values.
	Min, Max float64
}

// Row is one compared metric.
type Row struct {
	// Metric is the field's name in the result document, e.g.
	// "latency_ms.p99", "error_rate", "rps.achieved".
	Metric string
	// Label is the human name with its unit, e.g. "p99 latency (ms)".
	Label  string
	Better Direction
	A, B   Side
	// DeltaPct is the change of B's centre against A's, in percent. It
	// is +Inf when A's centre is 0 and B's is not, and 0 when both are 0.
	DeltaPct float64
	// Tested says whether a p-value could be computed (at least two runs
	// a side).
	Tested bool
	// P is the p-value of the test; 1 when the sides are identical.
	P float64
	// Significant is P < alpha: the difference is unlikely to be noise.
	Significant bool
}

// Compare compares the runs a (baseline) with the runs b on every metric
// both sides carry. A metric some runs lack (the target's CPU when not
// every run sampled it) is left out with a note; one no run has is left
// out silently. It refuses (with a *MismatchError) runs whose
// configurations differ in rate, duration, body or target path unless
// opts.Force is set; it never divides by zero.
func Compare(a, b []*result.Result, opts Options) (*Comparison, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkRuns(a, b, opts); err != nil {
		return nil, err
	}
	c := &Comparison{
		NameA: opts.NameA, NameB: opts.NameB,
		RunsA: len(a), RunsB: len(b),
		LabelsA: labels(len(a), opts.label("A", opts.LabelsA)),
		LabelsB: labels(len(b), opts.label("B", opts.LabelsB)),
		Test:    opts.Test, Center: opts.Center, Alpha: opts.Alpha,
	}
	diffs := configDiffs(a, b, opts)
	if len(diffs) > 0 {
		if !opts.Force {
			return nil, diffs[0]
		}
		for _, d := range diffs {
			c.Notes = append(c.Notes, "compared although "+d.Error())
		}
	}
	missing := map[string][]string{} // reason → metrics left out
	var order []string
	for _, m := range figures() {
		va, reasonA := values(a, m, opts.label("A", opts.LabelsA))
		vb, reasonB := values(b, m, opts.label("B", opts.LabelsB))
		if reasonA != "" || reasonB != "" {
			if absent(a, m) && absent(b, m) {
				continue // nothing to compare, nothing to explain
			}
			reason := reasonA
			if reason == "" {
				reason = reasonB
			}
			if _, ok := missing[reason]; !ok {
				order = append(order, reason)
			}
			missing[reason] = append(missing[reason], m.name)
			continue
		}
		c.Rows = append(c.Rows, compareRow(m, va, vb, opts))
	}
	for _, reason := range order {
		c.Notes = append(c.Notes, fmt.Sprintf("not compared: %s (%s)", strings.Join(missing[reason], ", "), reason))
	}
	c.Notes = append(c.Notes, testNotes(c)...)
	if len(a) == 1 || len(b) == 1 {
		dists, notes := compareDistributions(a, b, opts.Alpha)
		c.Distributions = dists
		c.Notes = append(c.Notes, notes...)
	}
	c.Warned = append(WarnedRuns(a, c.LabelsA), WarnedRuns(b, c.LabelsB)...)
	if note := WarnedNote(c.Warned); note != "" {
		c.Notes = append(c.Notes, note)
	}
	if len(opts.Gates) > 0 {
		o := judgeOptions{test: opts.Test, alpha: opts.Alpha, center: opts.Center, undecided: opts.Undecided}
		c.Gates = judgeRuns(a, b, opts.Gates, o, opts.NameA, opts.NameB)
		c.Gates.Warn(c.Warned)
	}
	return c, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.NameA == "" {
		o.NameA = "A"
	}
	if o.NameB == "" {
		o.NameB = "B"
	}
	switch o.Test {
	case "":
		o.Test = Welch
	case Welch, UTest:
	default:
		return o, fmt.Errorf("compare: unknown test %q (want welch or utest)", o.Test)
	}
	switch o.Center {
	case "":
		o.Center = Mean
	case Mean, Median:
	default:
		return o, fmt.Errorf("compare: unknown centre %q (want mean or median)", o.Center)
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	switch o.Undecided {
	case "":
		o.Undecided = UndecidedFail
	case UndecidedFail, UndecidedPass:
	default:
		return o, fmt.Errorf("compare: unknown undecided policy %q (want fail or pass)", o.Undecided)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, fmt.Errorf("compare: alpha %g is not between 0 and 1", o.Alpha)
	}
	return o, nil
}

// label returns the namer of a side's runs.
func (o Options) label(side string, labels []string) func(int) string {
	name := o.NameA
	if side == "B" {
		name = o.NameB
	}
	return func(i int) string {
		if i < len(labels) && labels[i] != "" {
			return labels[i]
		}
		return fmt.Sprintf("%s run %d", name, i+1)
	}
}

func labels(n int, label func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = label(i)
	}
	return out
}

func checkRuns(a, b []*result.Result, opts Options) error {
	if len(a) == 0 {
		return fmt.Errorf("compare: no runs for %s", opts.NameA)
	}
	if len(b) == 0 {
		return fmt.Errorf("compare: no runs for %s", opts.NameB)
	}
	for i, r := range a {
		if r == nil {
			return fmt.Errorf("compare: %s is missing", opts.label("A", opts.LabelsA)(i))
		}
	}
	for i, r := range b {
		if r == nil {
			return fmt.Errorf("compare: %s is missing", opts.label("B", opts.LabelsB)(i))
		}
	}
	return nil
}

// values reads metric m from every run, or says which run lacks it.
func values(rs []*result.Result, m figure, label func(int) string) ([]float64, string) {
	out := make([]float64, len(rs))
	for i, r := range rs {
		v, ok := m.get(r)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, label(i) + " " + m.missing
		}
		out[i] = v
	}
	return out, ""
}

// absent says whether no run has metric m.
func absent(rs []*result.Result, m figure) bool {
	for _, r := range rs {
		if _, ok := m.get(r); ok {
			return false
		}
	}
	return true
}

// compareRow summarises both sides and tests the difference.
func compareRow(m figure, va, vb []float64, opts Options) Row {
	row := Row{
		Metric: m.name, Label: m.label, Better: m.better,
		A: summarize(va, opts.Center), B: summarize(vb, opts.Center),
	}
	row.DeltaPct = DeltaPct(row.A.Center, row.B.Center)
	if len(va) < 2 || len(vb) < 2 {
		return row
	}
	row.Tested = true
	row.P = pValue(va, vb, opts.Test, opts.Alpha)
	row.Significant = row.P < opts.Alpha
	return row
}

// DeltaPct is the change from a to b in percent, without dividing by
// zero: from 0 to 0 is no change, from 0 to anything else is +Inf. A
// comparison's rows and a history's change points measure a change by it.
func DeltaPct(a, b float64) float64 {
	switch {
	case a == b:
		return 0
	case a == 0:
		return math.Inf(1)
	}
	return (b - a) / math.Abs(a) * 100
}

// testNotes says what the chosen test cannot do with these run counts.
func testNotes(c *Comparison) []string {
	var notes []string
	if c.RunsA == 1 || c.RunsB == 1 {
		notes = append(notes, fmt.Sprintf("%s: run-to-run variation cannot be judged from single runs, so no metric gets a p-value (\"?\"); repeat each side at least 3 times to decide", runCounts(c)))
		notes = append(notes, "the request-by-request distribution test treats requests as independent, which they are not (a slow second slows many): its p-value overstates significance")
		return notes
	}
	if c.Test == UTest {
		if minP := minUTestP(c.RunsA, c.RunsB); minP >= c.Alpha {
			notes = append(notes, fmt.Sprintf("%s: the U test cannot reach p < %g with so few runs (the smallest possible p is %.3f); it needs at least %d runs a side, or use Welch's t-test",
				runCounts(c), c.Alpha, minP, uTestRunsNeeded(c.Alpha)))
		}
	}
	return notes
}

func runCounts(c *Comparison) string {
	return fmt.Sprintf("%s has %s and %s %s", c.NameA, plural(c.RunsA, "run"), c.NameB, plural(c.RunsB, "run"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
