package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// abFiles writes three runs of a build (a1..a3.json) and three of a 30%
// slower one (b1..b3.json) into a new directory.
func abFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for i, j := range []float64{1.00, 1.03, 0.98} {
		start := cliStart.Add(time.Duration(i) * time.Hour)
		writeCLIResult(t, dir, "a"+string(rune('1'+i))+".json", cliResult(t, 10*j, uint64(i+1), start))
		writeCLIResult(t, dir, "b"+string(rune('1'+i))+".json", cliResult(t, 13*(2-j), uint64(i+10), start.Add(30*time.Minute)))
	}
	return dir
}

func TestCompareCLI(t *testing.T) {
	t.Parallel()
	dir := abFiles(t)
	a, b := filepath.Join(dir, "a*.json"), filepath.Join(dir, "b*.json")
	code, out, errs := cliRun(runCompare, a, "--vs", b, "--name-a", "dmaap", "--name-b", "cambria")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	for _, w := range []string{"dmaap (3 runs) vs cambria (3 runs)", "Welch's t-test", "worse"} {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q:\n%s", w, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "p99 latency") && !strings.HasSuffix(line, "worse") {
			t.Errorf("p99 row not significantly worse: %q", line)
		}
		if strings.HasPrefix(line, "error rate") && !strings.HasSuffix(line, "~") {
			t.Errorf("error rate row not ~: %q", line)
		}
	}

	// Flags after --vs, JSON for scripts.
	code, out, errs = cliRun(runCompare, filepath.Join(dir, "a1.json"), filepath.Join(dir, "a2.json"), filepath.Join(dir, "a3.json"),
		"-vs", b, "--format", "json")
	if code != exitOK {
		t.Fatalf("json: exit %d stderr %q", code, errs)
	}
	var doc struct {
		RunsA int `json:"runs_a"`
		Rows  []struct {
			Metric      string   `json:"metric"`
			PValue      *float64 `json:"p_value"`
			Significant bool     `json:"significant"`
		} `json:"rows"`
	}
	decodeJSON(t, out, &doc)
	if doc.RunsA != 3 || len(doc.Rows) == 0 || doc.Rows[0].Metric != "latency_ms.avg" || !doc.Rows[0].Significant || doc.Rows[0].PValue == nil {
		t.Errorf("json doc %+v", doc)
	}

	// The U test says it cannot decide with 3 runs a side.
	code, out, _ = cliRun(runCompare, a, "--vs="+filepath.Join(dir, "b1.json"), filepath.Join(dir, "b2.json"), filepath.Join(dir, "b3.json"), "--test", "utest", "--center", "median", "--format", "markdown")
	if code != exitOK || !strings.Contains(out, "cannot reach p < 0.05") || !strings.Contains(out, "| metric") {
		t.Errorf("utest markdown: exit %d\n%s", code, out)
	}

	// HTML to a file.
	page := filepath.Join(dir, "ab.html")
	code, out, errs = cliRun(runCompare, a, "--vs", b, "--format", "html", "-o", page)
	if code != exitOK || out != "" {
		t.Fatalf("html: exit %d stdout %q stderr %q", code, out, errs)
	}
	if html, err := os.ReadFile(page); err != nil || strings.Count(string(html), `<div class="chart"`) != 3 {
		t.Errorf("html comparison: %v, %d charts, want 3 (spectra, p99, rate)", err, strings.Count(string(html), `<div class="chart"`))
	}

	// --html beside the text table.
	page2 := filepath.Join(dir, "ab2.html")
	code, out, errs = cliRun(runCompare, a, "--vs", b, "--html", page2)
	if code != exitOK || !strings.Contains(out, "Welch's t-test") {
		t.Fatalf("--html: exit %d stdout %q stderr %q", code, out, errs)
	}
	if html, err := os.ReadFile(page2); err != nil || strings.Count(string(html), `<div class="chart"`) != 3 || !strings.Contains(string(html), `class="worse"`) {
		t.Errorf("--html page: %v, want 3 charts and the significance markers", err)
	}
	if code, _, errs = cliRun(runCompare, a, "--vs", b, "--html", filepath.Join(dir, "missing", "x.html")); code != exitRun || !strings.Contains(errs, "missing") {
		t.Errorf("--html to a missing directory: exit %d stderr %q", code, errs)
	}
}

func TestCompareCLIRefusesDifferentConfigs(t *testing.T) {
	t.Parallel()
	dir := abFiles(t)
	other := cliResult(t, 13, 99, cliStart)
	other.Config.RPS = 100
	odd := writeCLIResult(t, dir, "b9.json", other)
	a := filepath.Join(dir, "a*.json")
	code, out, errs := cliRun(runCompare, a, "--vs", filepath.Join(dir, "b1.json"), odd)
	if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d stdout %q stderr %q, want exit 2 with one line", code, out, errs)
	}
	for _, w := range []string{"config differs in rps", "a1.json has 50", "b9.json has 100", "--force"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr %q lacks %q", errs, w)
		}
	}
	code, out, errs = cliRun(runCompare, a, "--vs", filepath.Join(dir, "b1.json"), odd, "--force")
	if code != exitOK || !strings.Contains(out, "compared although config differs in rps") {
		t.Errorf("--force: exit %d stderr %q\n%s", code, errs, out)
	}
}

func TestCompareCLIBadInput(t *testing.T) {
	t.Parallel()
	dir := abFiles(t)
	a1, b1 := filepath.Join(dir, "a1.json"), filepath.Join(dir, "b1.json")
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"schema": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no --vs", []string{a1, b1}, "no --vs"},
		{"nothing before --vs", []string{"--vs", b1}, "got 0 before and 1 after"},
		{"nothing after --vs", []string{a1, "--vs"}, "got 1 before and 0 after"},
		{"--vs twice", []string{a1, "--vs", b1, "--vs", b1}, "--vs given twice"},
		{"no match", []string{filepath.Join(dir, "z*.json"), "--vs", b1}, "no file matches"},
		{"missing file", []string{a1, "--vs", filepath.Join(dir, "nope.json")}, "nope.json"},
		{"invalid file", []string{a1, "--vs", broken}, `broken.json: "schema" is 1`},
		{"bad format", []string{a1, "--vs", b1, "--format", "pdf"}, `--format: unknown format "pdf"`},
		{"bad test", []string{a1, "--vs", b1, "--test", "ks"}, `--test: unknown test "ks"`},
		{"bad centre", []string{a1, "--vs", b1, "--center", "mode"}, `--center: unknown centre "mode"`},
		{"bad flag", []string{a1, "--vs", b1, "--beta", "0.1"}, "unknown flag: --beta"},
		{"bad flag without --vs", []string{a1, "--beta", "0.1"}, "unknown flag: --beta"},
	}
	for _, tc := range tests {
		code, out, errs := cliRun(runCompare, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d stdout %q stderr %q, want exit 2 and one line with %q", tc.name, code, out, errs, tc.want)
		}
	}
	code, out, _ := cliRun(runCompare, "--help")
	if code != exitOK || !strings.Contains(out, "Usage: vesload compare") || !strings.Contains(out, "--name-a") {
		t.Errorf("--help: exit %d %q", code, out)
	}
}

func TestCompareEndToEnd(t *testing.T) {
	t.Parallel()
	dir := abFiles(t)
	o := vesload(t, 30*time.Second, "compare", filepath.Join(dir, "a*.json"), "--vs", filepath.Join(dir, "b*.json"), "--format", "markdown")
	if o.code != exitOK || !strings.Contains(o.stdout, "| p99 latency (ms)") {
		t.Errorf("exit %d stderr %q\n%s", o.code, o.stderr, o.stdout)
	}
	res := cliResult(t, 10, 1, cliStart)
	res.Config.URL = "http://127.0.0.1:8080/eventListener/v5"
	odd := writeCLIResult(t, dir, "v5.json", res)
	o = vesload(t, 30*time.Second, "compare", filepath.Join(dir, "a*.json"), "--vs", odd)
	if o.code != exitUsage || !strings.Contains(o.stderr, "config differs in path") {
		t.Errorf("path mismatch through the binary: exit %d stderr %q", o.code, o.stderr)
	}
}

// TestCompareNamesSidesByBuild: without --name-a and --name-b, a side
// whose runs all carry one build label is named by it; a side whose runs
// disagree keeps its letter.
func TestCompareNamesSidesByBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, j := range []float64{1.00, 1.03, 0.98} {
		start := cliStart.Add(time.Duration(i) * time.Hour)
		a, b := cliResult(t, 10*j, uint64(i+1), start), cliResult(t, 13*(2-j), uint64(i+10), start.Add(30*time.Minute))
		a.Config.Labels = map[string]string{"build": "1.9.1"}
		b.Config.Labels = map[string]string{"build": "1.10." + string(rune('0'+i))}
		writeCLIResult(t, dir, "a"+string(rune('1'+i))+".json", a)
		writeCLIResult(t, dir, "b"+string(rune('1'+i))+".json", b)
	}
	code, out, errs := cliRun(runCompare, filepath.Join(dir, "a*.json"), "--vs", filepath.Join(dir, "b*.json"))
	if code != exitOK || !strings.Contains(out, "1.9.1 (3 runs) vs B (3 runs)") {
		t.Errorf("exit %d stderr %q: want the sides named 1.9.1 and B:\n%s", code, errs, out)
	}
}
