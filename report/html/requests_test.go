package html

import (
	"regexp"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// The HTML Requests table reads as the text summary does: sent = ok +
// failed, the never-sent errors (pool_exhausted, or disconnected for
// HV-VES) on a row of their own, and one error rate, the result's, with
// the never-sent errors among the errors.
func TestRequestsTableAddsUp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		reqs   result.Requests
		errors map[string]int64
		rows   [][2]string
		absent string
	}{
		{
			name: "pool exhausted", reqs: result.Requests{Scheduled: 10, Sent: 2, OK: 2, Errors: 8},
			errors: map[string]int64{"pool_exhausted": 8},
			rows: [][2]string{{"sent", "2"}, {"ok", "2"}, {"failed \\(sent, not ok\\)", "0"},
				{"pool_exhausted \\(never sent\\)", "8"}, {"not sent \\(stopped\\)", "0"},
				{"error rate \\(errors / attempted\\)", "80.00%"}},
			absent: "errors (of sent)",
		},
		{
			name: "HV-VES disconnected", reqs: result.Requests{Scheduled: 10, Sent: 6, OK: 5, Errors: 3, NotSent: 1},
			errors: map[string]int64{"disconnected": 2, "timeout": 1},
			rows: [][2]string{{"sent", "6"}, {"ok", "5"}, {"failed \\(sent, not ok\\)", "1"},
				{"disconnected \\(never sent\\)", "2"}, {"not sent \\(stopped\\)", "1"},
				{"error rate \\(errors / attempted\\)", "33.33%"}},
			absent: "pool_exhausted (never sent)",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := sampleResult(t)
			r.Requests, r.Errors = c.reqs, c.errors
			page := render1(t, r)
			for _, row := range c.rows {
				re := regexp.MustCompile(`>` + row[0] + `</t[hd]>\s*<td class="num">` + row[1] + `</td>`)
				if !re.MatchString(page) {
					t.Errorf("no Requests row %s = %s", row[0], row[1])
				}
			}
			if regexp.MustCompile(regexp.QuoteMeta(c.absent)).MatchString(page) {
				t.Errorf("page still has %q", c.absent)
			}
		})
	}
}
