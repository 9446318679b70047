package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/profiles/scenario"
)

// overlayEnv returns base with env laid over it: NAME=VALUE replaces or
// adds NAME, a bare NAME removes it.
func overlayEnv(base, env []string) []string {
	out := slices.Clone(base)
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		out = slices.DeleteFunc(out, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
		if strings.Contains(e, "=") {
			out = append(out, e)
		}
	}
	return out
}

// faultTemplate is a VES 7 fault event whose sourceName is the variable
// PNF, as a site's own body file would be.
const faultTemplate = `{"event": {
  "commonEventHeader": {
    "domain": "fault", "eventId": "{{.EventID}}", "eventName": "Fault_vesload_test",
    "sequence": {{.Seq}}, "priority": "Normal", "reportingEntityName": "vesload",
    "sourceName": "${PNF}", "startEpochMicrosec": {{.EpochMicros}}, "lastEpochMicrosec": {{.EpochMicros}},
    "version": "4.1", "vesEventListenerVersion": "7.2.1"
  },
  "faultFields": {
    "faultFieldsVersion": "4.0", "alarmCondition": "test", "eventSeverity": "MINOR",
    "eventSourceType": "other", "specificProblem": "test", "vfStatus": "Active"
  }
}}
`

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// oneLine fails the test unless o exited with code and printed exactly one
// line on stderr holding every one of want.
func oneLine(t *testing.T, o outcome, code int, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
	if o.code != code || len(lines) != 1 {
		t.Fatalf("exit %d, want %d with one line; stderr:\n%s", o.code, code, o.stderr)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("stderr %q does not name %q", lines[0], w)
		}
	}
}

// The README documents $VESLOAD_PASSWORD as --password-file's default:
// --user alone must take the password from it, and say so when it is not
// set rather than send an empty one.
func TestUserPasswordFromEnvironment(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-from-env"
	// A plain comparison: this test is about the password, not BCrypt.
	url, stop := startServe(t, "--auth", "sample1:"+secret, "--auth-cost", "0")
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	args := []string{"-url", url + "/eventListener/v7", "--user", "sample1", "-rps", "20", "-duration", "1s", "-q"}
	o := vesloadEnv(t, 30*time.Second, []string{"VESLOAD_PASSWORD=" + secret}, append(args, "-o", out)...)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 20 || res.Requests.OK != 20 || res.Config.Auth != "basic" || res.Config.User != "sample1" {
		t.Fatalf("requests %+v errors %v auth %q user %q: want 20 accepted with basic auth as sample1",
			res.Requests, res.Errors, res.Config.Auth, res.Config.User)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw)+o.stdout+o.stderr, secret) {
		t.Fatal("the password reached the result or the output")
	}

	o = vesloadEnv(t, 30*time.Second, []string{"VESLOAD_PASSWORD"}, args...)
	oneLine(t, o, exitUsage, "VESLOAD_PASSWORD", "sample1")
}

// An imported JMeter plan reads its password from $VESLOAD_PASSWORD; unset,
// the run must not start (it would send "sample1:" with no password).
func TestImportedPlanWithoutPasswordFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(shareddata.Dir(t, "jmeter"), "1_test_scenario_6_steps.jmx")
	profile := filepath.Join(dir, "p.yaml")
	if o := vesload(t, 30*time.Second, "import-jmx", plan, "-o", profile); o.code != exitOK {
		t.Fatalf("import: exit %d: %s", o.code, o.stderr)
	}
	o := vesloadEnv(t, 30*time.Second, []string{"VESLOAD_PASSWORD"},
		"-profile", profile, "--set", "WORKER_IP=127.0.0.1", "-url", "http://127.0.0.1:9/eventListener/v7", "-duration", "1s", "-q")
	oneLine(t, o, exitUsage, "VESLOAD_PASSWORD")
}

// --set binds ${NAME} in a --body-file template, and a variable a profile
// marks as required (declared empty) that only a body file uses is asked
// for rather than sent as "".
func TestSetBindsBodyFileVariables(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := writeFile(t, dir, "fault.json", faultTemplate)
	out := filepath.Join(dir, "r.json")
	o := vesload(t, 30*time.Second, "--body-file", body, "--set", "PNF=pnf-7", "-rps", "20", "-duration", "1s", "-q", "-o", out)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	if res := readResult(t, out); res.Requests.OK != 20 {
		t.Fatalf("requests %+v errors %v: want 20 accepted", res.Requests, res.Errors)
	}

	o = vesload(t, 30*time.Second, "--body-file", body, "--set", "PFN=pnf-7", "-rps", "20", "-duration", "1s", "-q")
	oneLine(t, o, exitUsage, "PFN", "has no variable PFN; did you mean PNF?")
	o = vesload(t, 30*time.Second, "--body-file", body, "--set", "QQQ=pnf-7", "-rps", "20", "-duration", "1s", "-q")
	oneLine(t, o, exitUsage, "QQQ", "has no variable QQQ (it has PNF)")

	profile := writeFile(t, dir, "p.yaml", "name: required-var\nvars:\n  PNF: \"\"\nrequests:\n  - body_file: fault.json\n")
	o = vesload(t, 30*time.Second, "-profile", profile, "-rps", "20", "-duration", "1s", "-q")
	oneLine(t, o, exitUsage, "set PNF", profile)
}

// Messages about the scenario name where it came from: the profile file,
// the built-in profile, or the command line, never an empty name.
func TestScenarioErrorsNameTheSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--set", "X=1"}, "command line"},
		{[]string{"-profile", "ves-100rps-10m", "--set", "X=1"}, "ves-100rps-10m"},
	}
	for _, tt := range tests {
		o := vesload(t, 20*time.Second, append(tt.args, "-duration", "1s", "-q")...)
		oneLine(t, o, exitUsage, tt.want)
		if strings.Contains(o.stderr, "profile  ") {
			t.Errorf("%v: empty profile name in %q", tt.args, o.stderr)
		}
	}
}

// TestFlagsOverProfile: this profile and these flags give this plan. The
// flags are laid over the profile in process, as `run` does, and the
// result compiled with a fixed environment.
func TestFlagsOverProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := writeFile(t, dir, "fault.json", faultTemplate)
	const u = "http://127.0.0.1:9/eventListener/v7"
	tests := []struct {
		args string
		want string
	}{
		{"-url " + u,
			"constant 10/s for 10s: 100 scheduled; pool 64 wait 0s timeout 10s keepalive true; user \"\" (0); label fault; profile \"\"; headers []; gates 0"},
		{"-profile ves-100rps-10m -url " + u + " -duration 10s",
			"constant 100/s for 10s: 1000 scheduled; pool 64 wait 0s timeout 10s keepalive true; user \"\" (0); label fault; profile \"ves-100rps-10m\"; headers []; gates 2"},
		{"-profile ves-100rps-10m -url " + u + " -rps 5 --threshold p50<1s",
			"constant 5/s for 10m: 3000 scheduled; pool 64 wait 0s timeout 10s keepalive true; user \"\" (0); label fault; profile \"ves-100rps-10m\"; headers []; gates 3"},
		{"-profile ingress-concurrency-ramp -url " + u,
			"closed, concurrency 100, 200, … 1000 in 10 steps of 30s: closed; pool 1000 wait 0s timeout 10s keepalive true; user \"\" (0); label fault; profile \"ingress-concurrency-ramp\"; headers []; gates 0"},
		{"-url " + u + " --pool 8 --pool-wait 20ms --timeout 3s --keepalive=false -H X-A:b --batch 3 --event measurement",
			"constant 10/s for 10s: 100 scheduled; pool 8 wait 20ms timeout 3s keepalive false; user \"\" (0); label measurement-batch; profile \"\"; headers [{X-A b}]; gates 0"},
		{"-url " + u + " --user sample1",
			"constant 10/s for 10s: 100 scheduled; pool 64 wait 0s timeout 10s keepalive true; user \"sample1\" (8); label fault; profile \"\"; headers []; gates 0"},
		{"-url " + u + " --body-file " + body + " --set PNF=pnf-7 -rps 2 -duration 3s",
			"constant 2/s for 3s: 6 scheduled; pool 64 wait 0s timeout 10s keepalive true; user \"\" (0); label template; profile \"\"; headers []; gates 0"},
	}
	lookup := func(name string) (string, bool) {
		if name == "VESLOAD_PASSWORD" {
			return "from-env", true
		}
		return "", false
	}
	for _, tt := range tests {
		var o runOptions
		fs := runFlags(&o)
		if err := parseFlags(fs, strings.Fields(tt.args)); err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		if err := checkNumbers(&o); err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		sc, err := resolveScenario(&o, fs.Changed)
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		pl, err := scenario.Compile(sc, scenario.Options{RunID: "run1", LookupEnv: lookup})
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		c, ro, rc := pl.Config, pl.REST, pl.RunConfig
		load := "closed"
		if s, ok := c.Load.(*engine.Schedule); ok {
			load = fmt.Sprintf("%d scheduled", s.Total())
		}
		got := fmt.Sprintf("%s: %s; pool %d wait %v timeout %v keepalive %v; user %q (%d); label %s; profile %q; headers %v; gates %d",
			rc.Shape, load, c.Pool, c.PoolWait, c.Timeout, ro.KeepAlive, ro.User, len(ro.Password), pl.Label, rc.Profile, ro.Headers, len(rc.Thresholds))
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.args, got, tt.want)
		}
		if strings.Contains(tt.args, "PNF=") {
			if b := c.Body.AppendBody(nil, 0, time.Unix(0, 0)); !strings.Contains(string(b), `"sourceName": "pnf-7"`) {
				t.Errorf("%s: body does not carry the --set value: %s", tt.args, b)
			}
		}
	}
}
