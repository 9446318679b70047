package html

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// TestLivePageIsTheReport holds the live page to the static one: the
// same content of main and the same chart data, with the banner, the
// save link and the script that follows updates around them; the same
// redaction; and a page for a run with no second yet.
func TestLivePageIsTheReport(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	var static bytes.Buffer
	if err := Report(&static, r); err != nil {
		t.Fatal(err)
	}
	parts, err := PageParts(r, LiveFinished)
	if err != nil {
		t.Fatal(err)
	}
	s := static.String()
	if !strings.Contains(s, "<main>\n"+parts.Main+"</main>\n") {
		t.Fatal("the live page's main content differs from the report's")
	}
	if !strings.Contains(s, `<script type="application/json" id="vesload-charts">`+parts.Charts+"</script>") {
		t.Fatal("the live page's chart data differs from the report's")
	}
	tests := []struct {
		name string
		live Live
		want []string
		not  []string
	}{
		{"running", Live{State: LiveRunning, Status: "Running: 3 s of 60 s"},
			[]string{`data-live-state="running"`, `class="live running"`, "Running: 3 s of 60 s", `href="report.html" download="vesload-report.html" hidden>`, "new EventSource(\"events\")"}, nil},
		{"finished", Live{State: LiveFinished, Status: "Finished <now>"},
			[]string{`data-live-state="finished"`, "Finished &lt;now&gt;", `download="vesload-report.html">Save the report`}, []string{"Finished <now>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := LivePage(&b, r, tc.live); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			parts, err := PageParts(r, tc.live.State)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range append(tc.want, "<main>\n"+parts.Main+"</main>\n", parts.Charts) {
				if !strings.Contains(page, w) {
					t.Errorf("live page lacks %.80q", w)
				}
			}
			for _, n := range append(tc.not, "s3cr3t", "tok3n", "hunter2") {
				if strings.Contains(page, n) {
					t.Errorf("live page shows %q", n)
				}
			}
		})
	}
	empty, err := PageParts(nil, LiveRunning)
	if err != nil || !strings.Contains(empty.Main, "Waiting for the first second") || empty.Charts != "[]" {
		t.Fatalf("page before the first second: %+v, %v", empty, err)
	}
}

// A live page of a run going on calls the requests to come "not yet due",
// not "not sent (stopped)": 16 s into a 150 s run nothing was stopped.
func TestLivePageNotYetDue(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	r.Requests.NotYetDue, r.Interrupted = 6700, true
	parts, err := PageParts(r, LiveRunning)
	if err != nil {
		t.Fatal(err)
	}
	yet := regexp.MustCompile(`not yet due</td>\s*<td[^>]*>6,?700</td>`)
	if !yet.MatchString(parts.Main) {
		t.Errorf("the live page lacks the row \"not yet due 6700\":\n%s", parts.Main)
	}
	stopped := regexp.MustCompile(`not sent \(stopped\)</td>\s*<td[^>]*>0</td>`)
	if !stopped.MatchString(parts.Main) {
		t.Errorf("the live page counts requests not yet due as stopped")
	}
	// A finished run has no such row.
	r.Requests.NotYetDue = 0
	if parts, err = PageParts(r, LiveFinished); err != nil || strings.Contains(parts.Main, "not yet due") {
		t.Errorf("a finished run shows a not-yet-due row (err %v)", err)
	}
}

// TestLivePageVerdictIsProvisional: while the run goes on, the page gives
// no verdict ("Verdict: PASSED" read as the run's outcome): it says the
// gates as they stand so far, and that the verdict comes at the end.
func TestLivePageVerdictIsProvisional(t *testing.T) {
	t.Parallel()
	passing := sampleResult(t)
	passing.Thresholds = []result.Threshold{{Expr: "p99<1s", Value: 40, Unit: "ms", Pass: true}}
	passing.Warnings = nil
	failing := sampleResult(t)
	failing.Thresholds = []result.Threshold{{Expr: "p99<1s", Value: 40, Unit: "ms", Pass: true}, {Expr: "error_rate<0.1%", Value: 2, Unit: "%"}}
	tests := []struct {
		name  string
		r     *result.Result
		state LiveState
		want  []string
		not   []string
	}{
		{"running, passing", passing, LiveRunning,
			[]string{"Verdicts so far", "Provisional: the run goes on, and its verdict and exit code are given at its end; so far no gate fails.", "RUNNING: PASSING SO FAR"},
			[]string{"Verdict: PASSED", "exit 0"}},
		{"running, failing", failing, LiveRunning,
			[]string{"Verdicts so far", "so far 1 of 2 gates fail.", "RUNNING: FAILING SO FAR (1 of 2)"},
			[]string{"Verdict: FAILED", "exit 3"}},
		{"finished", passing, LiveFinished, []string{"Verdict: PASSED (exit 0)"}, []string{"so far", "Provisional"}},
	}
	for _, tc := range tests {
		parts, err := PageParts(tc.r, tc.state)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(parts.Main, w) {
				t.Errorf("%s: the page lacks %q", tc.name, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(parts.Main, n) {
				t.Errorf("%s: the page says %q", tc.name, n)
			}
		}
	}
}
