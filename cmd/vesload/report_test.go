package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// cliRun calls a subcommand in-process and returns its exit code and
// output.
func cliRun(run func([]string, io.Writer, io.Writer) int, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// cliResult builds a complete result with real HDR histograms: 20
// seconds at 50/s with latencies around base ms, started at start.
func cliResult(t *testing.T, base float64, seed uint64, start time.Time) *result.Result {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	lat, svc := result.NewHistogram(), result.NewHistogram()
	r := &result.Result{
		Schema: result.Schema,
		Tool:   result.Tool{Name: "vesload", Version: "test"},
		Config: result.RunConfig{
			URL: "http://127.0.0.1:8080/eventListener/v7", Method: "POST", RPS: 50, DurationS: 20,
			Pool: 16, TimeoutS: 10, Event: "fault", Thresholds: []string{"p99<1ms"},
		},
		Started: start, Ended: start.Add(20 * time.Second), DurationS: 20,
		Errors: map[string]int64{},
		RPS:    result.Rate{Target: 50, Achieved: 50},
	}
	for sec := range 20 {
		s := result.Second{T: int64(sec), Scheduled: 50, Sent: 50, OK: 50}
		for range 50 {
			us := int64(base * 1000 * (0.6 + 0.4*rng.ExpFloat64()))
			_ = lat.RecordValue(us)
			_ = svc.RecordValue(us * 9 / 10)
		}
		s.P50Ms, s.P99Ms, s.MaxMs = base, 2*base, 3*base
		r.Timeline = append(r.Timeline, s)
	}
	r.Requests = result.Requests{Scheduled: 1000, Sent: 1000, OK: 1000}
	r.Latency, r.Service = result.Summarize(lat), result.Summarize(svc)
	var err error
	if r.Histograms.Latency, err = result.EncodeHistogram(lat); err != nil {
		t.Fatal(err)
	}
	if r.Histograms.Service, err = result.EncodeHistogram(svc); err != nil {
		t.Fatal(err)
	}
	return r
}

// writeCLIResult saves r as dir/name and returns the path.
func writeCLIResult(t *testing.T, dir, name string, r *result.Result) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := resultfile.Write(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

var cliStart = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)

func TestReportFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeCLIResult(t, dir, "r.json", cliResult(t, 10, 1, cliStart))
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{path}, []string{"p99", "Error rate"}},
		{[]string{path, "--format", "text"}, []string{"p99"}},
		{[]string{"--format=json", path}, []string{`"schema": "vesload/result/v1"`, `"scheduled": 1000`}},
		{[]string{path, "-format", "html"}, []string{"<!DOCTYPE html>", `<div class="chart"`}},
		{[]string{path, "-f", "junit"}, []string{"<testsuites"}},
		{[]string{path, "--format", "csv"}, []string{"t,scheduled,sent"}},
		{[]string{path, "--format", "markdown"}, []string{"| Error rate % | Max CPU % |"}},
	}
	for _, tc := range tests {
		code, out, errs := cliRun(runReport, tc.args...)
		if code != exitOK || errs != "" {
			t.Errorf("report %v: exit %d, stderr %q", tc.args, code, errs)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("report %v: output lacks %q", tc.args, w)
			}
		}
	}
	// JSON re-renders the document faithfully.
	_, out, _ := cliRun(runReport, path, "--format", "json")
	back, err := resultfile.Decode(strings.NewReader(out), "stdout")
	if err != nil || back.Requests.Sent != 1000 || back.Histograms.Latency == "" {
		t.Errorf("json round trip: %v %+v", err, back)
	}
}

func TestReportToFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeCLIResult(t, dir, "r.json", cliResult(t, 10, 1, cliStart))
	out := filepath.Join(dir, "r.html")
	code, stdout, stderr := cliRun(runReport, path, "--format", "html", "-o", out)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	page, err := os.ReadFile(out)
	if n := strings.Count(string(page), `<div class="chart"`); err != nil || n != 3 {
		t.Fatalf("html file: %v, %d charts (want 3: latency, rate, spectrum; no errors, no CPU, memory or pool samples)", err, n)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".r.html.tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	code, _, stderr = cliRun(runReport, path, "-o", filepath.Join(dir, "missing", "r.txt"))
	if code != exitRun || !strings.Contains(stderr, "missing") {
		t.Errorf("unwritable output: exit %d stderr %q, want 1 naming the path", code, stderr)
	}
}

func TestReportBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeCLIResult(t, dir, "r.json", cliResult(t, 10, 1, cliStart))
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte("{\n  \"schema\": \"vesload/result/v1\",\n  \"tool\": {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"schema": "k6/summary"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", nil, "want exactly one result file, got 0"},
		{"two files", []string{good, good}, "got 2"},
		{"missing", []string{filepath.Join(dir, "nope.json")}, "nope.json: no such file"},
		{"invalid JSON", []string{broken}, "broken.json:4:1: invalid JSON"},
		{"other schema", []string{other}, `other.json: schema "k6/summary" is not supported`},
		{"bad format", []string{good, "--format", "pdf"}, `--format: unknown format "pdf" (want csv, html, json, junit, markdown, text)`},
		{"bad flag", []string{good, "--colour"}, "unknown flag: --colour"},
	}
	for _, tc := range tests {
		code, out, errs := cliRun(runReport, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d stdout %q stderr %q, want exit 2 and one line with %q", tc.name, code, out, errs, tc.want)
		}
	}
	code, out, _ := cliRun(runReport, "--help")
	if code != exitOK || !strings.Contains(out, "Usage: vesload report") || !strings.Contains(out, "--format") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// decodeJSON is a test helper for JSON outputs.
func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
}
