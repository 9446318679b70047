package report

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/report/result"
)

// FailedGates lists the gates that failed, as "ok>0 (0), p99<500ms
// (812 ms)": the one line that says why a merged run failed.
func FailedGates(ts []result.Threshold) string {
	var out []string
	for _, t := range ts {
		switch {
		case t.Pass:
			continue
		case t.Reason != "":
			out = append(out, fmt.Sprintf("%s (%s)", t.Expr, t.Reason))
		default:
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s (%g %s", t.Expr, t.Value, t.Unit))+")")
		}
	}
	return strings.Join(out, ", ")
}
