package compare

import (
	"github.com/vesload/vesload/report/result"
)

// The helpers below let a history of runs (report/trend) judge its gates
// with the same grammar, tolerances and wording as a comparison, and
// refuse the same mismatched scenarios.

// Better is the way metric name (a threshold name, e.g. p99, rps)
// improves.
func Better(name string) Direction { return direction(name) }

// Of reads the gate's metric off one run, or says why the run lacks it.
func (g Gate) Of(r *result.Result) (float64, string) { return g.measure.Of(r) }

// Change is b against a in the gate's tolerance kind: percent of a,
// percentage points, or the metric's unit.
func (g Gate) Change(a, b float64) float64 { return g.change(a, b) }

// Within reports whether a change (from Change) stays inside the
// tolerance.
func (g Gate) Within(change float64) bool { return g.within(change) }

// ConfigDiffs compares every run with the first and returns the first
// difference in each setting that changes what is measured (rate,
// duration, body, target path, auth, expected statuses); names label the
// runs in the errors.
func ConfigDiffs(rs []*result.Result, names []string) []*MismatchError {
	if len(rs) < 2 {
		return nil
	}
	o := Options{NameA: "run", NameB: "run", LabelsA: names[:1], LabelsB: names[1:]}
	return configDiffs(rs[:1], rs[1:], o)
}
