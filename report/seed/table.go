package seed

import "github.com/vesload/vesload/report/result"

// Header returns the column titles of the seed table (Avg, Max, p50,
// p95, p99, Error rate %, Max CPU %), so that renderers outside this
// package (HTML, comparisons) lay out the same columns the ONAP pages use.
func Header() []string {
	cols := Columns(false)
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Title
	}
	return out
}

// Values returns the cells of r's seed-table row, formatted exactly as
// the Markdown and text renderings print them ("n/a" where r has no
// figure), so that every rendering of a run agrees to the digit.
func Values(r *result.Result) []string {
	if r == nil {
		return nil
	}
	return Row(r, false)
}
