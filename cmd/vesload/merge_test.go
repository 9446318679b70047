package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/resultfile"
)

func TestMergeCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Two generators started a second apart, as parallel pods would.
	g1 := writeCLIResult(t, dir, "g1.json", cliResult(t, 10, 1, cliStart))
	g2 := writeCLIResult(t, dir, "g2.json", cliResult(t, 20, 2, cliStart.Add(time.Second)))
	out := filepath.Join(dir, "merged.json")
	code, stdout, stderr := cliRun(runMerge, filepath.Join(dir, "g*.json"), "-o", out)
	// The results carry the gate p99<1ms, which the merged figures fail.
	if code != exitThreshold || stdout != "" || !strings.Contains(stderr, "merged 2 results (2000 requests sent) into "+out) {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	m, err := resultfile.Read(out)
	if err != nil {
		t.Fatalf("merged file does not read back: %v", err)
	}
	if m.Requests.Sent != 2000 || m.Latency.Count != 2000 || m.RPS.Target != 100 || m.Config.RPS != 100 || len(m.Timeline) != 21 {
		t.Errorf("merged requests %+v latency count %d rps %+v timeline %d", m.Requests, m.Latency.Count, m.RPS, len(m.Timeline))
	}
	if err := m.AccountingError(); err != nil {
		t.Error(err)
	}
	// The gate is evaluated again on the merged figures.
	if len(m.Thresholds) != 1 || m.Thresholds[0].Expr != "p99<1ms" || m.Thresholds[0].Pass || m.Thresholds[0].Value != m.Latency.P99 {
		t.Errorf("thresholds %+v, want p99<1ms failing at the merged p99 %v", m.Thresholds, m.Latency.P99)
	}

	// Without -o the document goes to stdout.
	code, stdout, stderr = cliRun(runMerge, g1, g2)
	if code != exitThreshold || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("stdout merge: exit %d stderr %q", code, stderr)
	}
	if back, err := resultfile.Decode(strings.NewReader(stdout), "stdout"); err != nil || back.Requests.Sent != 2000 {
		t.Errorf("stdout is not the merged document: %v", err)
	}
}

func TestMergeCLIBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g1 := writeCLIResult(t, dir, "g1.json", cliResult(t, 10, 1, cliStart))
	later := writeCLIResult(t, dir, "later.json", cliResult(t, 10, 2, cliStart.Add(time.Hour)))
	r7 := cliResult(t, 10, 1, cliStart)
	r7.Config.RunID = "r7"
	withID := writeCLIResult(t, dir, "r7.json", r7)
	r7.Requests.Sent, r7.Requests.OK = 999, 999 // a copy edited by hand is still the same run
	withIDAgain := writeCLIResult(t, dir, "r7-copy.json", r7)
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no files", nil, "want the result files to merge"},
		{"no match", []string{filepath.Join(dir, "x*.json")}, "no file matches"},
		{"junk", []string{g1, junk}, "junk.json:1:2: invalid JSON"},
		{"sequential runs", []string{g1, later}, "later.json ran 2025-03-04 11:00:00Z"},
		{"bad flag", []string{g1, "--format", "html"}, "unknown flag: --format"},
		{"one run twice", []string{g1, g1, "-o", filepath.Join(dir, "m.json")}, "merge: " + g1 + " and " + g1 + " are the same run (identical content)"},
		{"one run id twice", []string{withID, withIDAgain}, "merge: " + withID + " and " + withIDAgain + " are the same run (run r7 started 2025-03-04T10:00:00Z)"},
	}
	for _, tc := range tests {
		code, out, errs := cliRun(runMerge, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d stdout %q stderr %q, want exit 2 and one line with %q", tc.name, code, out, errs, tc.want)
		}
	}
	code, out, _ := cliRun(runMerge, "-help")
	if code != exitOK || !strings.Contains(out, "Usage: vesload merge") {
		t.Errorf("-help: exit %d %q", code, out)
	}
}

func TestReportAndMergeEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g1 := writeCLIResult(t, dir, "g1.json", cliResult(t, 10, 1, cliStart))
	g2 := writeCLIResult(t, dir, "g2.json", cliResult(t, 12, 2, cliStart))
	merged := filepath.Join(dir, "m.json")
	if o := vesload(t, 30*time.Second, "merge", g1, g2, "-o", merged); o.code != exitThreshold {
		t.Fatalf("merge: exit %d stderr %q", o.code, o.stderr)
	}
	page := filepath.Join(dir, "m.html")
	if o := vesload(t, 30*time.Second, "report", merged, "--format", "html", "-o", page); o.code != exitOK {
		t.Fatalf("report: exit %d stderr %q", o.code, o.stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "merged from 2 generators") {
		t.Errorf("merged html report: %v", err)
	}
	if o := vesload(t, 30*time.Second, "report", filepath.Join(dir, "none.json")); o.code != exitUsage || !strings.Contains(o.stderr, "none.json") {
		t.Errorf("missing file: exit %d stderr %q", o.code, o.stderr)
	}
}
