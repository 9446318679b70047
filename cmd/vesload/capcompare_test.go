package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// writeCapacity writes a capacity document into dir as a search of
// `vesload capacity -o` would: found maxRPS, failed at failRPS laid to
// limitedBy, labelled build, started at hour n.
func writeCapacity(t *testing.T, dir, name string, maxRPS, failRPS float64, limitedBy, build string, n int) string {
	t.Helper()
	d := result.CapacityDocument{Schema: result.CapacitySchema, Tool: result.Tool{Name: "vesload", Version: "test"},
		Config:  result.CapacityConfig{URL: "http://collector:8080/eventListener/v7", StartRPS: 50, MaxRPS: 20000, PrecisionPct: 5},
		Started: cliStart.Add(time.Duration(n) * time.Hour), Ended: cliStart.Add(time.Duration(n)*time.Hour + 3*time.Minute),
		Capacity: result.Capacity{MaxRPS: maxRPS, FailRPS: failRPS, LimitedBy: limitedBy, Confirmed: true,
			PrecisionPct: (failRPS - maxRPS) / maxRPS * 100, AskedPrecisionPct: 5},
		Labels: map[string]string{"build": build}}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// capacitySides writes two searches of dmaap (about 2,300/s) and two of
// cambria (about 1,850/s), each precise to 5 %.
func capacitySides(t *testing.T, cambriaLimit string) string {
	t.Helper()
	dir := t.TempDir()
	writeCapacity(t, dir, "a1.json", 2200, 2310, result.CauseTarget, "dmaap", 0)
	writeCapacity(t, dir, "a2.json", 2400, 2520, result.CauseTarget, "dmaap", 1)
	writeCapacity(t, dir, "b1.json", 1800, 1890, cambriaLimit, "cambria", 2)
	writeCapacity(t, dir, "b2.json", 1900, 1995, result.CauseTarget, "cambria", 3)
	return dir
}

func TestCompareCapacityCLI(t *testing.T) {
	t.Parallel()
	dir := capacitySides(t, result.CauseTarget)
	a, b := filepath.Join(dir, "a*.json"), filepath.Join(dir, "b*.json")
	junit := filepath.Join(dir, "gates.xml")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"text", []string{a, "--vs", b}, exitOK, []string{"dmaap holds 2,300/s (±5 %), cambria 1,850/s (±5 %): cambria holds less (-19.6 %), beyond the precision", "2,200–2,400/s"}, ""},
		{"markdown", []string{a, "--vs", b, "--format", "markdown"}, exitOK, []string{"| dmaap   |    2 |        2,300/s |"}, ""},
		{"json", []string{a, "--vs", b, "-f", "json"}, exitOK, []string{`"mean_rps": 2300`, `"beyond_precision": true`}, ""},
		{"gate holds", []string{a, "--vs", b, "--gate", "capacity>-25%"}, exitOK, []string{"gate capacity>-25%: PASS"}, ""},
		{"gate fails", []string{a, "--vs", b, "--gate", "capacity>-10%", "--junit", junit}, exitThreshold, []string{"gate capacity>-10%: FAIL: cambria holds 1,850/s, below 2,070/s"}, ""},
		{"gate on stderr with json", []string{a, "--vs", b, "--gate", "capacity>-10%", "-f", "json"}, exitThreshold, []string{`"outcome": "fail"`}, "vesload: compare: gate capacity>-10%: FAIL"},
		{"names given", []string{a, "--vs", b, "--name-a", "old", "--name-b", "new"}, exitOK, []string{"old holds 2,300/s"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cliRun(runCompare, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) || (tc.stderr == "" && errs != "") {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errs)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
	x, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(x), `failures="1"`) || !strings.Contains(string(x), `name="capacity&gt;-10%"`) {
		t.Errorf("JUnit (%v):\n%s", err, x)
	}
}

func TestCompareCapacityGeneratorCLI(t *testing.T) {
	t.Parallel()
	dir := capacitySides(t, result.CauseGenerator)
	code, out, _ := cliRun(runCompare, filepath.Join(dir, "a*.json"), "--vs", filepath.Join(dir, "b*.json"), "--gate", "capacity>-10%")
	if code != exitThreshold || !strings.Contains(out, "FAIL (undecided): decided on a generator's limit: cambria: limited by the generator") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = cliRun(runCompare, filepath.Join(dir, "a*.json"), "--vs", filepath.Join(dir, "b*.json"), "--gate", "capacity>-10%", "--gate-undecided", "pass")
	if code != exitOK || !strings.Contains(out, "PASS (undecided): decided on a generator's limit") {
		t.Errorf("--gate-undecided pass: exit %d:\n%s", code, out)
	}
}

func TestCompareCapacityBadInput(t *testing.T) {
	t.Parallel()
	dir := capacitySides(t, result.CauseTarget)
	run := filepath.Join(dir, "run.json")
	writeCLIResult(t, dir, "run.json", cliResult(t, 10, 1, cliStart))
	a, b := filepath.Join(dir, "a1.json"), filepath.Join(dir, "b1.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"mixed", []string{a, "--vs", run}, "a1.json is a capacity document and " + run + " is not"},
		{"mixed on one side", []string{run, a, "--vs", b}, "is a capacity document and"},
		{"run gate", []string{a, "--vs", b, "--gate", "p99<+10%"}, "--gate: gate \"p99<+10%\": capacity documents are gated by capacity only"},
		{"wrong direction", []string{a, "--vs", b, "--gate", "capacity<+10%"}, "worse downwards"},
		{"unknown format", []string{a, "--vs", b, "--format", "csv"}, `--format: capacity comparisons are rendered as html, json, markdown, text, not "csv"`},
		{"page over an input", []string{a, "--vs", b, "--html", b}, "--html"},
		{"junit without gate", []string{a, "--vs", b, "--junit", filepath.Join(dir, "j.xml")}, "--junit reports gates"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cliRun(runCompare, tc.args...)
			if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, errs, tc.want)
			}
		})
	}
}

func TestTrendCapacityCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, s := range []struct {
		build  string
		max    float64
		limitd string
	}{{"1.10.0", 1850, result.CauseTarget}, {"1.9.1", 2300, result.CauseTarget}, {"1.9.2", 2350, result.CauseGenerator}} {
		writeCapacity(t, dir, "c"+string(rune('1'+i))+".json", s.max, s.max*1.05, s.limitd, s.build, i)
	}
	code, out, errs := cliRun(runTrend, dir, "--by", "build")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	i91, i92, i10 := strings.Index(out, "1.9.1 "), strings.Index(out, "1.9.2 "), strings.Index(out, "1.10.0 ")
	if i91 < 0 || !(i91 < i92 && i92 < i10) || !strings.Contains(out, "-21.3 % (beyond precision)") || !strings.Contains(out, "no change points: 3 searches") {
		t.Errorf("text:\n%s", out)
	}
	code, out, _ = cliRun(runTrend, dir, "--by", "build", "--format", "json")
	var h struct {
		Builds []struct {
			Name      string   `json:"name"`
			LimitedBy []string `json:"limited_by"`
		} `json:"builds"`
	}
	decodeJSON(t, out, &h)
	if code != exitOK || len(h.Builds) != 3 || h.Builds[2].Name != "1.10.0" || h.Builds[1].LimitedBy[0] != "generator" {
		t.Errorf("json: exit %d %+v", code, h)
	}
	code, out, _ = cliRun(runTrend, dir, "--by", "build", "-f", "markdown")
	if code != exitOK || !strings.Contains(out, "| 1.9.2  |    1 |        2,350/s |") {
		t.Errorf("markdown: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{dir, "--gate", "p99<+10%"}, {dir, "--metric", "p99"}, {dir, "--by", "commit"}, {dir, "-f", "csv"}, {dir, "--html", filepath.Join(dir, "c1.json")}} {
		code, out, errs := cliRun(runTrend, bad...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stdout %q stderr %q, want exit 2 and one line", bad, code, out, errs)
		}
	}
	writeCLIResult(t, dir, "run.json", cliResult(t, 10, 1, cliStart))
	if code, _, errs := cliRun(runTrend, dir); code != exitUsage || !strings.Contains(errs, "is a capacity document and") {
		t.Errorf("mixed history: exit %d %q", code, errs)
	}
}

// TestCapacityPagesCLI: compare and trend of capacity documents write
// their HTML pages, with --html beside the text or as --format html,
// and exit as the text form does: 3 on a failed gate, 0 otherwise.
func TestCapacityPagesCLI(t *testing.T) {
	t.Parallel()
	dir := capacitySides(t, result.CauseTarget)
	a, b := filepath.Join(dir, "a*.json"), filepath.Join(dir, "b*.json")
	out := t.TempDir()
	page := func(name string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("no page: %v", err)
		}
		return string(data)
	}
	textCode, text, _ := cliRun(runCompare, a, "--vs", b, "--gate", "capacity>-10%")
	code, stdout, errs := cliRun(runCompare, a, "--vs", b, "--gate", "capacity>-10%", "--html", filepath.Join(out, "cmp.html"))
	if code != exitThreshold || textCode != code || stdout != text || errs != "" {
		t.Errorf("compare --html: exit %d (text %d), stderr %q; stdout the text's: %v", code, textCode, errs, stdout == text)
	}
	cmp := page("cmp.html")
	for _, want := range []string{"<h1>Capacity: dmaap vs cambria</h1>", `<span class="badge fail">FAIL (1 of 1)</span>`,
		"dmaap holds 2,300/s (±5 %), cambria 1,850/s (±5 %): cambria holds less (-19.6 %), beyond the precision", "2,200/s to below 2,520/s"} {
		if !strings.Contains(cmp, want) {
			t.Errorf("compare --html: the page lacks %q", want)
		}
	}
	code, stdout, errs = cliRun(runCompare, a, "--vs", b, "--gate", "capacity>-25%", "--format", "html", "-o", filepath.Join(out, "cmp2.html"))
	if code != exitOK || stdout != "" || !strings.Contains(errs, "vesload: compare: gate capacity>-25%: PASS") ||
		!strings.Contains(page("cmp2.html"), `<span class="badge pass">PASS</span>`) {
		t.Errorf("compare --format html -o: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	code, stdout, _ = cliRun(runCompare, a, "--vs", b, "-f", "html")
	if code != exitOK || !strings.HasPrefix(stdout, "<!DOCTYPE html>") || !strings.HasSuffix(stdout, "</html>\n") {
		t.Errorf("compare -f html: exit %d, stdout %.100q", code, stdout)
	}

	hist := t.TempDir()
	for i, s := range []struct {
		build string
		max   float64
	}{{"1.10.0", 1850}, {"1.9.1", 2300}, {"1.9.2", 2350}} {
		writeCapacity(t, hist, "c"+string(rune('1'+i))+".json", s.max, s.max*1.05, result.CauseTarget, s.build, i)
	}
	textCode, text, _ = cliRun(runTrend, hist, "--by", "build")
	code, stdout, errs = cliRun(runTrend, hist, "--by", "build", "--html", filepath.Join(out, "trend.html"))
	if code != exitOK || textCode != code || stdout != text || errs != "" {
		t.Errorf("trend --html: exit %d (text %d), stderr %q", code, textCode, errs)
	}
	tr := page("trend.html")
	for _, want := range []string{"<h1>Capacity over builds: 1.9.1 … 1.10.0</h1>", "1.10.0 holds 1,850/s, -21.3 % against 1.9.2&#39;s 2,350/s: beyond the precision",
		"no change points: 3 searches"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trend --html: the page lacks %q", want)
		}
	}
	code, stdout, errs = cliRun(runTrend, hist, "--by", "build", "--format", "html", "-o", filepath.Join(out, "trend2.html"))
	if code != exitOK || stdout != "" || errs != "" || !strings.Contains(page("trend2.html"), `"xNames":["1.9.1","1.9.2","1.10.0"]`) {
		t.Errorf("trend --format html -o: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
}

// TestCapacityPagesHostileLabels: builds and side names read from
// capacity documents reach an HTML page on stdout escaped for the
// terminal it lands on, and for the browser.
func TestCapacityPagesHostileLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	evil := "\x1b[31m\x1b[2J\u202e\a\x9b<img src=x>"
	writeCapacity(t, dir, "a.json", 2300, 2415, result.CauseTarget, "1.0"+evil, 0)
	writeCapacity(t, dir, "b.json", 1850, 1940, result.CauseTarget, "1.1"+evil, 1)
	for name, args := range map[string][]string{
		"compare": {filepath.Join(dir, "a.json"), "--vs", filepath.Join(dir, "b.json"), "-f", "html"},
		"trend":   {dir, "--by", "build", "-f", "html"},
	} {
		run := runCompare
		if name == "trend" {
			run = runTrend
		}
		code, out, errs := cliRun(run, args...)
		if code != exitOK || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errs)
		}
		if table.EscapeControlLines(out) != out || !strings.Contains(out, `1.0\x1b[31m\x1b[2J\u202e\x07`) || !strings.Contains(out, "&lt;img src=x&gt;") || strings.Contains(out, "<img") {
			t.Errorf("%s: the labels are not escaped:\n%.3000s", name, out)
		}
	}
}

// TestCapacityCompareBinary runs the built command on files in a folder,
// as CI would.
func TestCapacityCompareBinary(t *testing.T) {
	t.Parallel()
	dir := capacitySides(t, result.CauseTarget)
	o := vesload(t, 30*time.Second, "compare", filepath.Join(dir, "a1.json"), filepath.Join(dir, "a2.json"), "--vs", filepath.Join(dir, "b*.json"), "--gate", "capacity>-10%")
	if o.code != exitThreshold || !strings.Contains(o.stdout, "dmaap holds 2,300/s (±5 %), cambria 1,850/s (±5 %)") {
		t.Errorf("exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	o = vesload(t, 30*time.Second, "trend", dir, "--by", "build")
	if o.code != exitOK || !strings.Contains(o.stdout, "capacity over builds") {
		t.Errorf("trend: exit %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	pages := t.TempDir()
	o = vesload(t, 30*time.Second, "compare", filepath.Join(dir, "a*.json"), "--vs", filepath.Join(dir, "b*.json"), "--gate", "capacity>-10%",
		"--html", filepath.Join(pages, "compare.html"))
	if data, err := os.ReadFile(filepath.Join(pages, "compare.html")); o.code != exitThreshold || err != nil || !strings.Contains(string(data), "cambria holds less") {
		t.Errorf("compare --html: exit %d, page %v\n%s", o.code, err, o.stderr)
	}
	o = vesload(t, 30*time.Second, "trend", dir, "--by", "build", "--html", filepath.Join(pages, "trend.html"))
	if data, err := os.ReadFile(filepath.Join(pages, "trend.html")); o.code != exitOK || err != nil || !strings.Contains(string(data), "Capacity over builds") {
		t.Errorf("trend --html: exit %d, page %v\n%s", o.code, err, o.stderr)
	}
}
