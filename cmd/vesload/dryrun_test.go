package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
)

// dryTemplate is a body template whose header names a variable, so that
// --set and --data-file show in the rendered bodies.
const dryTemplate = `{"event":{"commonEventHeader":{"version":"4.1","vesEventListenerVersion":"7.2.1","domain":"fault",
"eventName":"Fault_dry","eventId":"{{.EventID}}","sequence":{{.Seq}},"priority":"High","reportingEntityName":"dry",
"sourceName":"${SOURCE}","startEpochMicrosec":{{.EpochMicros}},"lastEpochMicrosec":{{.EpochMicros}}},
"faultFields":{"faultFieldsVersion":"4.0","alarmCondition":"c","eventSourceType":"other","specificProblem":"p",
"eventSeverity":"CRITICAL","vfStatus":"Active"}}}`

func TestDryRun(t *testing.T) {
	t.Parallel()
	schemas := shareddata.Dir(t, "ves")
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tmpl := write("t.json", dryTemplate)
	bad := write("bad.json", `{"event":{"commonEventHeader":{"domain":"fault","eventId":"{{.EventID}}"}}}`)
	rows := write("rows.csv", "SOURCE\nnf-a\nnf-b\n")
	pw := write("pw", "Pa55-dry\n")
	tests := []struct {
		name      string
		args      []string
		schemaDir string
		code      int
		want      []string // each must appear
		count     map[string]int
		never     []string
	}{
		{name: "built-in event", args: []string{"--rps", "5", "--duration", "2s"}, code: exitOK,
			want:  []string{"dry run: nothing is sent", "schedule: 10 requests in 2s (mean 5/s), shape constant 5/s for 2s", "pool:     64 connections", "(the built-in emulator, not started by a dry run)", "Content-Type: application/json", "User-Agent: vesload/"},
			count: map[string]int{"valid against the v7 schema": 3, "--- request ": 3, `"eventId":"dry-`: 3}},
		{name: "secrets redacted", args: []string{"--url", "https://127.0.0.1:8443/eventListener/v7", "--user", "ves", "--password-file", pw, "-H", "X-Auth-Token: tok-Secr3t", "-H", "X-Site: lab"}, code: exitOK,
			want:  []string{"Authorization: Basic <redacted>", "X-Auth-Token: <redacted>", "X-Site: lab", "POST https://127.0.0.1:8443/eventListener/v7"},
			never: []string{"Pa55-dry", "tok-Secr3t"}},
		{name: "batch", args: []string{"--batch", "3", "--url", "http://127.0.0.1:9/eventListener/v7", "--dry-run-requests", "1"}, code: exitOK,
			want:  []string{"POST http://127.0.0.1:9/eventListener/v7/eventBatch", `{"eventList":[`},
			count: map[string]int{"valid against the v7 schema": 1, "--- request ": 1}},
		{name: "set", args: []string{"--body-file", tmpl, "--set", "SOURCE=nf-set"}, code: exitOK,
			count: map[string]int{`"sourceName":"nf-set"`: 3, "valid against the v7 schema": 3}},
		{name: "data file", args: []string{"--body-file", tmpl, "--data-file", rows, "--dry-run-requests", "2"}, code: exitOK,
			count: map[string]int{`"sourceName":"nf-a"`: 1, `"sourceName":"nf-b"`: 1, "valid against the v7 schema": 2}},
		{name: "profile", args: []string{"--profile", "ves-50rps-10m", "--dry-run-requests", "2"}, code: exitOK,
			want:  []string{"schedule: 30000 requests in 10m0s (mean 50/s)"},
			count: map[string]int{"valid against the v7 schema": 2}},
		{name: "invalid body", args: []string{"--body-file", bad, "--dry-run-requests", "2"}, code: exitUsage,
			want:  []string{"INVALID against the v7 schema", "2 of 2 rendered requests are invalid"},
			count: map[string]int{"valid against the v7 schema": 0}},
		// The built-in events are VES 7: the v5 schema refuses them.
		{name: "v5 path", args: []string{"--url", "http://127.0.0.1:9/eventListener/v5", "--dry-run-requests", "1"}, code: exitUsage,
			want:  []string{"/event/commonEventHeader/version': got string, want number"},
			count: map[string]int{"INVALID against the v5 schema": 1}},
		{name: "fewer scheduled than asked", args: []string{"--rps", "1", "--duration", "2s", "--dry-run-requests", "5"}, code: exitOK,
			count: map[string]int{"--- request ": 2}},
		{name: "no schemas", args: []string{"--body-file", bad}, schemaDir: filepath.Join(dir, "none"), code: exitOK,
			count: map[string]int{"not validated: schemas not found at " + filepath.Join(dir, "none"): 1, "--- request ": 3, "INVALID": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var o runOptions
			fs := runFlags(&o)
			if err := fs.Parse(append([]string{"--dry-run"}, tt.args...)); err != nil {
				t.Fatal(err)
			}
			sd := schemas
			if tt.schemaDir != "" {
				sd = tt.schemaDir
			}
			var out bytes.Buffer
			code, err := dryRun(&o, fs.Changed, "dry", sd, &out)
			got := out.String()
			if err != nil || code != tt.code {
				t.Fatalf("dryRun = %d, %v; want %d\n%s", code, err, tt.code, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q\n%s", w, got)
				}
			}
			for w, n := range tt.count {
				if c := strings.Count(got, w); c != n {
					t.Errorf("output has %q %d times, want %d\n%s", w, c, n, got)
				}
			}
			for _, w := range tt.never {
				if strings.Contains(got, w) {
					t.Errorf("output shows the secret %q\n%s", w, got)
				}
			}
		})
	}
}

// TestDryRunSendsNothing runs the binary against a server that counts
// what it gets: a dry run connects to nothing.
func TestDryRunSendsNothing(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	var conns atomic.Int64
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	o := vesload(t, time.Minute, "--dry-run", "--url", srv.URL+"/eventListener/v7", "--rps", "100", "--duration", "2s", "--dry-run-requests", "2")
	if o.code != exitOK || strings.Count(o.stdout, "--- request ") != 2 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", o.code, o.stdout, o.stderr)
	}
	if n, c := hits.Load(), conns.Load(); n != 0 || c != 0 {
		t.Errorf("a dry run sent %d requests over %d connections, want none", n, c)
	}
}

// A dry run of an imported JMeter plan shows the headers the wire
// carries, each once (the plan's own Content-Type too), Host and
// Content-Length included; a plan whose body does not render to JSON
// (ONAP's stndDefined plans are one brace short) is refused with a line
// that names --raw-body, which then runs it.
func TestDryRunImportedPlans(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "jmeter")
	tmp := t.TempDir()
	pw := filepath.Join(tmp, "pw")
	if err := os.WriteFile(pw, []byte("Pa55-jmx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	imported := func(plan string) string {
		code, out, errs := callCmd(runImportJMX, filepath.Join(dir, plan))
		if code != exitOK {
			t.Fatalf("import %s: exit %d: %s", plan, code, errs)
		}
		p := filepath.Join(tmp, plan+".yaml")
		if err := os.WriteFile(p, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dry := func(args ...string) (int, string, string) {
		base := []string{"--dry-run", "--dry-run-requests", "2", "--set", "WORKER_IP=127.0.0.1", "--password-file", pw}
		return cliRun(runRun, append(base, args...)...)
	}

	code, out, errs := dry("--profile", imported("1_test_scenario_6_steps.jmx"))
	if code != exitOK {
		t.Fatalf("dry run of the 6-steps plan: exit %d: %s", code, errs)
	}
	for h, n := range map[string]int{"Content-Type: ": 2, "Host: 127.0.0.1:30417\n": 2, "Content-Length: ": 2, "Authorization: Basic <redacted>\n": 2, "User-Agent: vesload/": 2} {
		if c := strings.Count(out, h); c != n {
			t.Errorf("%q %d times in two requests, want %d:\n%s", h, c, n, out)
		}
	}
	if strings.Contains(out, "Pa55-jmx") {
		t.Errorf("the password is shown:\n%s", out)
	}

	sd := imported("2_test_scenario_2k_rps_stndDefined.jmx")
	code, _, errs = dry("--profile", sd)
	if code != exitUsage || !strings.Contains(errs, "rendered body is not valid JSON") || !strings.Contains(errs, "give --raw-body") {
		t.Errorf("stndDefined plan: exit %d, stderr %q; want exit 2 naming --raw-body", code, errs)
	}
	// With --raw-body the body compiles; whether the schema check then
	// passes it is another matter.
	if code, out, errs = dry("--profile", sd, "--raw-body"); strings.Contains(errs, "not valid JSON") || !strings.Contains(out, "--- request 2") {
		t.Errorf("stndDefined plan with --raw-body: exit %d: %s", code, errs)
	}
}
