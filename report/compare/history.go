package compare

import (
	"github.com/vesload/vesload/report/result"
)

// The helpers below let a history of runs (report/trend) judge its gates
// with the same grammar, tolerances and wording as a comparison, and
// refuse the same mismatched scenarios.

// Of reads the gate's metric off one run, or says why the run lacks it.
func (g Gate) Of(r *result.Result) (float64, string) { return g.measure.Of(r) }

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
