package html

import (
	"regexp"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// The HTML Requests table reads as the text summary does: sent = ok +
// errors of sent, and pool_exhausted on a row of its own.
func TestRequestsTableAddsUp(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	r.Requests = result.Requests{Scheduled: 10, Sent: 2, OK: 2, Errors: 8}
	r.Errors = map[string]int64{"pool_exhausted": 8}
	page := render1(t, r)
	for _, row := range [][2]string{{"sent", "2"}, {"ok", "2"}, {"errors \\(of sent\\)", "0"}, {"pool_exhausted", "8"}, {"not sent \\(stopped\\)", "0"}} {
		re := regexp.MustCompile(`>` + row[0] + `</t[hd]>\s*<td class="num">` + row[1] + `</td>`)
		if !re.MatchString(page) {
			t.Errorf("no Requests row %s = %s", row[0], row[1])
		}
	}
}
