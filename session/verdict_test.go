package session

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/junit"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/threshold"
	"github.com/vesload/vesload/report/verdict"
)

// restRun is a finished REST run of n seconds of 100 requests, ok of
// each second succeeding, whose latencies are about ms (a little apart
// from second to second, so that the U test sees no ties).
func restRun(n int, ok int64, ms float64) *result.Result {
	r := &result.Result{Schema: result.Schema, DurationS: float64(n), Errors: map[string]int64{},
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	r.Ended = r.Started.Add(time.Duration(n) * time.Second)
	for i := range n {
		v := ms * (1 + 0.01*float64(i%5-2))
		r.Timeline = append(r.Timeline, result.Second{T: int64(i), Scheduled: 100, Sent: 100, OK: ok, Errors: 100 - ok,
			P50Ms: v, AvgMs: v, P95Ms: 1.5 * v, P99Ms: 2 * v, MaxMs: 3 * v})
	}
	total := int64(n) * 100
	r.Requests = result.Requests{Scheduled: total, Sent: total, OK: int64(n) * ok, Errors: total - int64(n)*ok}
	if r.Requests.Errors > 0 {
		r.Errors["http_503"] = r.Requests.Errors
	}
	r.Latency = result.Summary{Count: total, Min: ms / 2, Avg: ms, P50: ms, P90: 1.4 * ms, P95: 1.5 * ms, P99: 2 * ms, P999: 2.5 * ms, Max: 3 * ms}
	r.RPS = result.Rate{Target: 100, Achieved: 100}
	return r
}

// TestEveryVerdictAgrees walks every path to a verdict through Finish and
// checks that the exit code, the JUnit file, the summary's verdict line
// and its warnings say the same: a JUnit with a failure exactly when the
// exit code is not 0, a verdict line naming the exit code, no sentence
// promising another exit code.
func TestEveryVerdictAgrees(t *testing.T) {
	dir := t.TempDir()
	baseFile := filepath.Join(dir, "base.json")
	if err := resultfile.Write(baseFile, restRun(10, 100, 10)); err != nil {
		t.Fatal(err)
	}
	shortFile := filepath.Join(dir, "short.json")
	if err := resultfile.Write(shortFile, restRun(2, 100, 10)); err != nil {
		t.Fatal(err)
	}
	baseline := func(file, undecided string, exprs ...string) *compare.Baseline {
		b, err := compare.LoadBaseline(file, compare.GateOptions{Exprs: exprs, Alpha: 0.05, Undecided: undecided})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	gates := func(exprs ...string) []threshold.Threshold {
		g, err := threshold.ParseAll(exprs)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	shard := func(r *result.Result) *result.Result { r.Shard = &result.ShardInfo{Index: 1, Count: 2}; return r }
	hvLost := func() *result.Result {
		r := restRun(10, 100, 1)
		r.Config.Protocol = result.ProtocolHV
		r.Requests.Errors, r.Requests.OK = 200, 800
		r.Errors["disconnected"] = 200
		r.HV = &result.HV{Sent: result.HVCounts{Scheduled: 1000, Written: 800},
			NotSentBy: map[string]int64{result.ClassDisconnected: 200}}
		return r
	}
	undelivered := func() *result.Result {
		r := restRun(10, 100, 1)
		r.Delivery = &result.Delivery{Expected: 1000, Lost: 1000}
		return r
	}
	for _, c := range []struct {
		name string
		res  *result.Result
		o    Options
		code int
		// class is the JUnit classname of the failing case, if any.
		class, failure string
		line           string // the verdict line's start
	}{
		{"pass", restRun(10, 100, 10), Options{Gates: gates("p99<100ms")}, 0, "", "", "Verdict: PASSED (exit 0)"},
		{"no gate at all", restRun(10, 100, 10), Options{}, 0, "", "", "Verdict: PASSED (exit 0): no gate was set and no built-in rule was broken"},
		{"threshold fails", restRun(10, 100, 10), Options{Gates: gates("p99<5ms")}, 3, "vesload.thresholds", "threshold", "Verdict: FAILED (exit 3): p99<5ms"},
		{"built-in rule fails", restRun(10, 0, 10), Options{}, 3, "vesload.rules", "rule", "Verdict: FAILED (exit 3): ok>0"},
		{"nothing succeeded, allowed", restRun(10, 0, 10), Options{AllowErrors: true}, 0, "", "", "Verdict: PASSED (exit 0): no gate was set, and --allow-errors lets the built-in rules only warn"},
		{"baseline gate fails", restRun(10, 100, 20), Options{Baseline: baseline(baseFile, "fail", "p99<+10%")}, 3,
			"vesload.gates", "regression", "Verdict: FAILED (exit 3): p99<+10%"},
		{"baseline gate passes on the same build", restRun(10, 100, 10),
			Options{Baseline: baseline(baseFile, "fail", "avg<+1ms", "p95<+10%", "p99<+10%")}, 0, "", "", "Verdict: PASSED (exit 0): all 3 gates"},
		{"undecided gate fails", restRun(2, 100, 10), Options{Baseline: baseline(shortFile, "fail", "p99<+10%")}, 3,
			"vesload.gates", "undecided", "Verdict: FAILED (exit 3): p99<+10%"},
		{"undecided gate passes", restRun(2, 100, 10), Options{Baseline: baseline(shortFile, "pass", "p99<+10%")}, 0, "", "", "Verdict: PASSED (exit 0)"},
		{"a shard defers its gates to the merge", shard(restRun(10, 0, 10)), Options{Gates: gates("error_rate<1%")}, 0, "", "",
			"Verdict: DEFERRED (exit 0): failed on this shard: error_rate<1%, ok>0; this shard (1/2) exits 0"},
		{"a shard's baseline gate is its own", shard(restRun(10, 100, 20)), Options{Baseline: baseline(baseFile, "fail", "p99<+10%")}, 3,
			"vesload.gates", "regression", "Verdict: FAILED (exit 3)"},
		{"HV-VES messages lost to a disconnect", hvLost(), Options{}, 3, "vesload.rules", "rule", "Verdict: FAILED (exit 3): hv.disconnected==0"},
		{"nothing delivered", undelivered(), Options{}, 3, "vesload.rules", "rule", "Verdict: FAILED (exit 3): delivery.delivered>0"},
		{"delivery gated by the user", undelivered(), Options{Gates: gates("delivery.delivered>=0")}, 0, "", "", "Verdict: PASSED (exit 0)"},
		{"a record misses part of the run", func() *result.Result {
			r := restRun(10, 100, 10)
			r.Outputs = []result.OutputLoss{{Name: "--jtl r.jtl", Rows: 12}, {Name: "live line", Updates: 3, Live: true}}
			return r
		}(), Options{Gates: gates("p99<100ms")}, 1, "vesload.run", "incomplete",
			"Verdict: INCOMPLETE (exit 1): the gates held, but these records miss part of the run: --jtl r.jtl"},
		{"a failed gate wins over a record that misses part of the run", func() *result.Result {
			r := restRun(10, 100, 10)
			r.Outputs = []result.OutputLoss{{Name: "--jtl r.jtl", Rows: 12}}
			return r
		}(), Options{Gates: gates("p99<5ms")}, 3, "vesload.run", "incomplete", "Verdict: FAILED (exit 3): p99<5ms"},
		{"interrupted", func() *result.Result { r := restRun(10, 100, 10); r.Interrupted = true; return r }(), Options{}, 130,
			"vesload.run", "interrupted", "Verdict: INTERRUPTED (exit 130)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			xmlFile := filepath.Join(t.TempDir(), "junit.xml")
			var stdout, stderr bytes.Buffer
			c.o.Files, c.o.Stderr = files.Set{JUnit: xmlFile}, &stderr
			s := &Session{o: c.o, plan: &scenario.Plan{}, prog: newProgress(&stderr, true, time.Second), outputs: context.Background()}
			code, err := s.Finish(c.res, &stdout)
			if err != nil || code != c.code {
				t.Fatalf("exit %d err %v, want exit %d\n%s", code, err, c.code, stdout.String())
			}
			suite := readJUnit(t, xmlFile)
			if (suite.Failures > 0) != (code != 0) {
				t.Errorf("JUnit has %d failures and the exit code is %d", suite.Failures, code)
			}
			var failed []junit.Case
			for _, tc := range suite.Cases {
				if tc.Failure != nil {
					failed = append(failed, tc)
				}
			}
			if c.class != "" && (len(failed) == 0 || failed[0].Classname != c.class || failed[0].Failure.Type != c.failure) {
				t.Errorf("failed cases %+v, want the first of class %s, type %s", failed, c.class, c.failure)
			}
			if len(suite.Cases) != len(c.res.Thresholds)+1 {
				t.Errorf("%d cases for %d gates, want one per gate and the run's", len(suite.Cases), len(c.res.Thresholds))
			}
			summary := stdout.String()
			lines := strings.Split(strings.TrimSpace(summary), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, c.line) {
				t.Errorf("the summary ends %q, want %q", last, c.line)
			}
			checkExitWords(t, summary+stderr.String(), code)
		})
	}
}

// checkExitWords fails when a sentence of text names an exit code, or
// says the run passes or exits 0, against the code the process exits
// with.
func checkExitWords(t *testing.T, text string, code int) {
	t.Helper()
	for _, m := range regexp.MustCompile(`\(?exits? \(?(\d+)\)?`).FindAllStringSubmatch(text, -1) {
		if m[1] != fmt.Sprint(code) {
			t.Errorf("the words say %q, the exit code is %d:\n%s", m[0], code, text)
		}
	}
	if code != 0 && strings.Contains(text, "the run passes") {
		t.Errorf("the words say the run passes, the exit code is %d:\n%s", code, text)
	}
	if code != verdict.ExitFailed && strings.Contains(text, "the run fails") {
		t.Errorf("the words say the run fails, the exit code is %d:\n%s", code, text)
	}
}

func readJUnit(t *testing.T, file string) junit.Suite {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []junit.Suite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("JUnit %s: %v, %d suites", b, err, len(doc.Suites))
	}
	return doc.Suites[0]
}
