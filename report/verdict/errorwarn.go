package verdict

import (
	"fmt"

	"github.com/vesload/vesload/report/result"
)

// ErrorWarnPct is the error rate above which a run without gates of its
// own is warned about: such a run still exits 0, and a CI job reading
// only the exit code would take a failing collector for a healthy one.
const ErrorWarnPct = 1.0

// WarnUngatedErrors adds a warning to a judged result whose error rate
// (the result's, pool_exhausted included) is over ErrorWarnPct when the
// run set no gate of its own (--threshold or --abort-on-fail) and passed:
// a run the built-in rules fail (nothing succeeded, say), or a shard that
// defers to the merge, has the rules' own words. It returns the warning,
// "" when there is none.
func WarnUngatedErrors(res *result.Result, gates int) string {
	if gates > 0 || res.Requests.OK == 0 || Of(res) != Passed {
		return ""
	}
	pct, ok := res.ErrorRatePct()
	if !ok || pct <= ErrorWarnPct {
		return ""
	}
	w := fmt.Sprintf("error rate %.2f%% and no --threshold: %s; gate it with e.g. --threshold 'error_rate<1%%'", pct, Consequence(res, Passed))
	res.Warnings = append(res.Warnings, w)
	return w
}
