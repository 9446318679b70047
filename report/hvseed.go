package report

import "github.com/vesload/vesload/report/result"

// HVSeedHeader is the header of ONAP's HV-VES performance table, for
// renderers outside this package (the HTML report) to show the same
// columns as the text summary.
func HVSeedHeader() []string {
	cols := hvSeedColumns()
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Title
	}
	return out
}

// HVSeedRow is r's row of that table; r.HV must be set.
func HVSeedRow(r *result.Result) []string { return hvSeedRow(r) }
