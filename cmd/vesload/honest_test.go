package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHeadersSentAsRecorded: a Host header is sent as written, and the
// result records it; the headers vesload writes itself (framing,
// hop-by-hop) and one name given twice are refused, where they used to be
// recorded in config.headers and never sent.
func TestHeadersSentAsRecorded(t *testing.T) {
	var mu sync.Mutex
	hosts := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts[r.Host]++
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, time.Minute, "--url", srv.URL+"/eventListener/v7", "--rps", "5", "--duration", "1s", "-q",
		"-H", "Host: ves.example", "-H", "X-Test: 1", "-o", out)
	if o.code != 0 {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	mu.Lock()
	if len(hosts) != 1 || hosts["ves.example"] == 0 {
		t.Errorf("the server saw Host %v: want ves.example on every request", hosts)
	}
	mu.Unlock()
	if res := readResult(t, out); res.Config.Headers["Host"] != "ves.example" || res.Config.Headers["X-Test"] != "1" {
		t.Errorf("config.headers %v: want Host and X-Test as sent", res.Config.Headers)
	}
	for _, c := range []struct {
		headers []string
		want    string
	}{
		{[]string{"Content-Length: 5"}, "--header Content-Length is written by vesload"},
		{[]string{"transfer-encoding: chunked"}, "--header transfer-encoding is written by vesload"},
		{[]string{"Connection: close"}, "--header Connection concerns the connection"},
		{[]string{"Upgrade: h2c"}, "--header Upgrade concerns the connection"},
		{[]string{"x-a: 1", "X-A: 2"}, "--header X-A given twice"},
	} {
		args := []string{"--url", srv.URL + "/eventListener/v7", "--rps", "1", "--duration", "1s"}
		for _, h := range c.headers {
			args = append(args, "-H", h)
		}
		for _, dry := range []bool{false, true} {
			a := args
			if dry {
				a = append(a, "--dry-run")
			}
			o := vesload(t, 30*time.Second, a...)
			if line := strings.TrimRight(o.stderr, "\n"); o.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, c.want) {
				t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line with %q", a, o.code, o.stderr, c.want)
			}
		}
	}
}

// TestOneFileNeverReadAndWritten: no command writes over a file it reads
// (report r.json -o r.json replaced the result with its HTML), two outputs
// never share the standard output, and a history never counts one file
// twice.
func TestOneFileNeverReadAndWritten(t *testing.T) {
	dir := t.TempDir()
	r := writeCLIResult(t, dir, "r.json", cliResult(t, 5, 1, cliStart))
	before, err := os.ReadFile(r)
	if err != nil {
		t.Fatal(err)
	}
	dot := "./" + filepath.Base(r)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"report", r, "--format", "html", "-o", r}, "-o " + r + " is the input " + r},
		{[]string{"report", dot, "-o", r}, "is the input"},
		{[]string{"compare", r, "--vs", r, "--html", r}, "--html " + r + " is the input"},
		{[]string{"trend", r, "-o", r}, "-o " + r + " is the input"},
		{[]string{"merge", r, "-o", r}, "-o " + r + " is the input"},
		{[]string{"--rps", "1", "--duration", "1s", "--baseline", r, "-o", r}, "-o " + r + " is the input"},
		{[]string{"--rps", "1", "--duration", "1s", "-o", "-", "--jtl", "/dev/stdout"}, "-o - and --jtl /dev/stdout both write to the standard output"},
		{[]string{"--rps", "1", "--duration", "1s", "--csv", "/dev/stdout", "--jtl", "/dev/fd/1"}, "both write to the standard output"},
		{[]string{"trend", r, r, dot}, r + " and " + r + " are one file"},
	}
	for _, c := range cases {
		cmd := vesloadIn(t, dir, c.args...)
		if line := strings.TrimRight(cmd.stderr, "\n"); cmd.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line with %q", c.args, cmd.code, cmd.stderr, c.want)
		}
	}
	if after, err := os.ReadFile(r); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the input changed: %v", err)
	}
}

// vesloadIn runs the binary in dir.
func vesloadIn(t *testing.T, dir string, args ...string) outcome {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	defer t.Chdir(wd)
	return vesload(t, 30*time.Second, args...)
}

// TestDryRunRefusesWhatARunRefuses: a dry run takes the run ID a run
// takes, checked the same way, and shows it in the eventIds.
func TestDryRunRefusesWhatARunRefuses(t *testing.T) {
	for _, dry := range []bool{false, true} {
		args := []string{"--rps", "1", "--duration", "1s", "--run-id", "../../etc/x<script>"}
		if dry {
			args = append(args, "--dry-run")
		}
		o := vesload(t, 30*time.Second, args...)
		if line := strings.TrimRight(o.stderr, "\n"); o.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, "--run-id: run ID") {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line naming --run-id", args, o.code, o.stderr)
		}
	}
	if o := vesload(t, 30*time.Second, "--dry-run", "--run-id", "abc-1"); o.code != 0 || !strings.Contains(o.stdout, `"eventId":"abc-1-0"`) {
		t.Errorf("dry run with --run-id abc-1: exit %d, want its eventIds to carry it\n%s%s", o.code, o.stdout, o.stderr)
	}
}

// TestFlagOfOneValueGivenTwice: pflag kept the last value silently; a
// scalar flag given twice is refused in every command, a repeatable one
// takes both, and --preset ” is an unknown preset, not none.
func TestFlagOfOneValueGivenTwice(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--rps", "100", "--rps", "10", "--dry-run"}, exitUsage, `--rps given twice ("100", then "10")`},
		{[]string{"-rps", "100", "--rps=10", "--dry-run"}, exitUsage, "--rps given twice"},
		{[]string{"hv", "--producers", "1", "--producers", "2"}, exitUsage, "--producers given twice"},
		{[]string{"report", "x.json", "-o", "a", "--output", "b"}, exitUsage, "--output given twice"},
		{[]string{"serve", "--preset", ""}, exitUsage, `--preset: unknown preset ""`},
		{[]string{"--threshold", "p99<1s", "--threshold", "p50<1s", "-H", "A: 1", "-H", "B: 2", "--dry-run"}, 0, ""},
	}
	for _, c := range cases {
		o := vesload(t, 30*time.Second, c.args...)
		line := strings.TrimRight(o.stderr, "\n")
		if o.code != c.code || c.want != "" && (strings.Contains(line, "\n") || !strings.Contains(line, c.want)) {
			t.Errorf("%v: exit %d, stderr %q: want exit %d and %q", c.args, o.code, o.stderr, c.code, c.want)
		}
	}
}
