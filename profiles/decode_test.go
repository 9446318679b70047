package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const fullProfile = `
name: dmaap-vs-cambria
description: compare two collector builds at 100 rps
vars:
  HOST: ""
target:
  url: https://${HOST}:8443/eventListener/v7
  method: POST
  headers:
    X-Test: "1"
  auth:
    user: sample1
    password_env: VESLOAD_PASSWORD
  tls:
    cacert: ca.pem
pool: 16
pool_wait: 100ms
timeout: 10s
keepalive: false
load:
  stages:
    - {ramp: {from: 10, to: 100, over: 30s}}
    - {rps: 100, duration: 10m}
requests:
  - name: faults
    weight: 3
    event: fault
    size: 2048
  - name: batch
    batch: 20
    event: measurement
    path: /eventListener/v7/eventBatch
  - name: jmeter
    body: |
      {"event": {"commonEventHeader": {"startEpochMicrosec": ${__time()}}}}
    headers:
      X-Source: jmeter
samplers:
  target_pid: 4242
  target_metrics: http://collector:8080/actuator/prometheus
  prom_url: http://prometheus:9090
  prom_queries:
    cpu: process_cpu_usage
thresholds:
  - p99<500ms
  - error_rate<1%
`

func TestParseFullProfile(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(fullProfile), "full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	off := false
	want := &Profile{
		Name:        "dmaap-vs-cambria",
		Description: "compare two collector builds at 100 rps",
		Vars:        map[string]string{"HOST": ""},
		Target: Target{
			URL:     "https://${HOST}:8443/eventListener/v7",
			Method:  "POST",
			Headers: map[string]string{"X-Test": "1"},
			Auth:    &Auth{User: "sample1", PasswordEnv: "VESLOAD_PASSWORD"},
			TLS:     &TLS{CACert: "ca.pem"},
		},
		Pool: 16, PoolWait: 100 * time.Millisecond, Timeout: 10 * time.Second, KeepAlive: &off,
		Load: Shape{Stages: []Stage{
			{Ramp: &Ramp{From: 10, To: 100, Over: 30 * time.Second}},
			{RPS: 100, Duration: 10 * time.Minute},
		}},
		Requests: []Request{
			{Name: "faults", Weight: 3, Event: "fault", Size: 2048},
			{Name: "batch", Weight: 1, Batch: 20, Event: "measurement", Path: "/eventListener/v7/eventBatch"},
			{Name: "jmeter", Weight: 1, Body: "{\"event\": {\"commonEventHeader\": {\"startEpochMicrosec\": ${__time()}}}}\n",
				Headers: map[string]string{"X-Source": "jmeter"}},
		},
		Samplers: Samplers{
			TargetPID: 4242, TargetMetrics: "http://collector:8080/actuator/prometheus",
			PromURL: "http://prometheus:9090", PromQueries: map[string]string{"cpu": "process_cpu_usage"},
		},
		Thresholds: []string{"p99<500ms", "error_rate<1%"},
		Source:     "full.yaml",
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Parse =\n%+v\nwant\n%+v", p, want)
	}
	if got := p.Load.TotalRequests(); got != 61650 {
		t.Errorf("TotalRequests = %d, want 61650 (1650 ramping + 60000)", got)
	}
	if p.KeepAliveOn() {
		t.Error("KeepAliveOn() = true, want false")
	}
}

func TestParseDefaults(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte("load: {rps: 10, duration: 1m}\n"), "dir/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "minimal" || p.Target.Method != "POST" || !p.KeepAliveOn() {
		t.Errorf("name %q, method %q, keepalive %v; want minimal, POST, true", p.Name, p.Target.Method, p.KeepAliveOn())
	}
	if want := []Request{DefaultRequest()}; !reflect.DeepEqual(p.Requests, want) {
		t.Errorf("requests = %+v, want %+v", p.Requests, want)
	}
	p, err = Parse([]byte("requests:\n  - body_file: bodies/pnf.json\n  - event: heartbeat\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	if p.Requests[0].Name != "pnf" || p.Requests[1].Name != "heartbeat" || p.Requests[0].Weight != 1 {
		t.Errorf("default names and weights: %+v", p.Requests)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"typo at top", "lod:\n  rps: 1\n", `p.yaml:1:1: unknown key "lod" at the top level: did you mean "load"?`},
		{"typo nested", "load:\n  rps: 5\n  duraton: 1m\n", `p.yaml:3:3: unknown key "duraton" in load: did you mean "duration"?`},
		{"camel case", "poolWait: 1s\n", `p.yaml:1:1: unknown key "poolWait" at the top level: did you mean "pool_wait"?`},
		{"unknown far from all", "target:\n  zzz: 1\n", `p.yaml:2:3: unknown key "zzz" in target: want one of url, method, headers, auth, tls, expect_status`},
		{"password in clear", "target:\n  auth:\n    user: u\n    password: hunter2\n",
			`p.yaml:4:5: target.auth.password: a password is never written in a profile: use password_file or password_env`},
		{"bad duration", "load:\n  rps: 1\n  duration: 10 minutes\n",
			`p.yaml:3:13: load.duration: bad duration "10 minutes": want a duration such as 10m, 30s or 150ms`},
		{"bare number duration", "timeout: 30\n", `p.yaml:1:10: timeout: 30 has no unit: want a duration such as 10m, 30s or 150ms`},
		{"float for int", "pool: 2.5\n", `p.yaml:1:7: pool: want a whole number, got a number`},
		{"string for number", "load: {rps: fast, duration: 1s}\n", `p.yaml:1:13: load.rps: want a number, got a string`},
		{"nan rate", "load: {rps: .nan, duration: 1s}\n", `p.yaml:1:13: load.rps: want a finite number, got .nan`},
		{"string for bool", "keepalive: yes\n", `p.yaml:1:12: keepalive: want true or false, got a string`},
		{"list for mapping", "target: [a]\n", `p.yaml:1:9: target: want a mapping of url, method, headers, auth, tls, expect_status, got a list`},
		{"mapping for list", "thresholds: {a: 1}\n", `p.yaml:1:13: thresholds: want a list, got a mapping`},
		{"mapping for string", "name: {a: 1}\n", `p.yaml:1:7: name: want a string, got a mapping`},
		{"int overflow", "pool: 99999999999999999999\n", `p.yaml:1:7: pool: 99999999999999999999 is out of range`},
		{"syntax", "load: [\n", `p.yaml:1:7: this [ list is not closed with ]`},
		{"duplicate key", "pool: 1\npool: 2\n", `p.yaml:2:1: key "pool" is given twice (first on line 1)`},
		{"not a mapping", "- a\n", `p.yaml:1:1: want a mapping of profile keys (name, target, load, requests…), got a list`},
		{"empty", "# nothing\n", `p.yaml: empty profile: want a mapping with load, requests, target…`},
		{"two documents", "pool: 1\n---\npool: 2\n", `p.yaml:3:1: a second YAML document: want one profile per file`},
		{"two shapes", "load:\n  rps: 5\n  duration: 1s\n  ramp: {from: 1, to: 2, over: 1s}\n",
			`p.yaml:1:1: load: more than one load shape (constant, ramp): want exactly one of rps+duration, stages, ramp, closed, producers`},
		{"missing duration", "load:\n  rps: 5\n", `p.yaml:1:1: load.duration: missing or not positive: want a duration such as 10m`},
		{"negative stage rate", "load:\n  stages:\n    - {rps: 5, duration: 1s}\n    - {rps: -5, duration: 1s}\n",
			`p.yaml:4:8: load.stages[1].rps: want a rate between 0 and 1e+07 requests per second`},
		{"zero weight", "requests:\n  - event: fault\n    weight: 0\n", `p.yaml:3:5: requests[0].weight: 0: want a weight of at least 1`},
		{"duplicate names", "requests:\n  - name: a\n  - name: a\n    event: heartbeat\n",
			`p.yaml:3:5: requests[1].name: "a" is also the name of requests[0]: want unique names`},
		{"bad domain", "requests:\n  - event: Fault\n",
			`p.yaml:2:5: requests[0].event: unknown VES domain "Fault": did you mean "fault"? (want one of fault, measurement, heartbeat, notification, pnfRegistration, stndDefined)`},
		{"event and body", "requests:\n  - event: fault\n    body: '{}'\n",
			`p.yaml:2:5: requests[0].event: set with a body template: want event (and size) or body/body_file, not both`},
		{"authorization header", "target:\n  headers:\n    Authorization: Basic c2FtcGxlMTpzYW1wbGUx\n",
			`p.yaml:3:5: target.headers.Authorization: credentials are not written in a profile: use target.auth with password_file or password_env`},
		{"framing header", "target:\n  headers:\n    Content-Length: 5\n",
			`p.yaml:3:5: target.headers.Content-Length: Content-Length is written by vesload from the body, never as given: leave it out`},
		{"hop-by-hop header", "requests:\n  - event: fault\n    headers: {Connection: close}\n",
			`p.yaml:3:15: requests[0].headers.Connection: Connection concerns the connection, which vesload manages (--keep-alive): leave it out`},
		{"one header in two spellings", "target:\n  headers:\n    X-A: 1\n    x-a: 2\n",
			`p.yaml:4:5: target.headers.x-a: the same header as X-A: give it once`},
		{"bad url", "target:\n  url: collector:8080\n", `p.yaml:2:3: target.url: "collector:8080": the scheme is missing: write https://collector:8080 (or http:// for a plain port)`},
		{"no host", "target:\n  url: http:///x\n", `p.yaml:2:3: target.url: "http:///x": want an absolute http or https URL with a host`},
		{"auth without password source", "target:\n  auth: {user: u}\n", `p.yaml:2:3: target.auth: no password_file or password_env: want where to read the password from`},
		{"bad method", "target:\n  method: post\n", `p.yaml:2:3: target.method: "post": want one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS`},
		{"not UTF-8", "name: caf\xe9\n", `p.yaml:1:10: not UTF-8 text: save the profile as UTF-8`},
		{"bad var name", "vars:\n  1X: a\n", `p.yaml:2:3: vars.1X: "1X": want a variable name of letters, digits and _ not starting with a digit or __`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.in), "p.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded, want %s", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *profiles.Error", err)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "c2FtcGxl") {
				t.Errorf("error reveals a secret: %s", err)
			}
		})
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(fullProfile), "full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"duration: 10m\n", "rps: 100\n", "over: 30s\n", "body: |\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("marshalled profile lacks %q:\n%s", want, out)
		}
	}
	q, err := Parse(out, "full.yaml")
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip changed the profile:\n%+v\n%+v", p, q)
	}
}

func TestLoadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "p.yaml")
	yaml := "requests:\n  - body_file: body.json\ntarget:\n  auth: {user: u, password_file: /etc/secret}\n  tls: {cacert: ca.pem}\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Requests[0].BodyFile, filepath.Join(dir, "body.json"); got != want {
		t.Errorf("body_file = %q, want %q (relative to the profile)", got, want)
	}
	if got, want := p.Target.TLS.CACert, filepath.Join(dir, "ca.pem"); got != want {
		t.Errorf("cacert = %q, want %q", got, want)
	}
	if got := p.Target.Auth.PasswordFile; got != "/etc/secret" {
		t.Errorf("absolute password_file changed to %q", got)
	}
	if p.Source != path {
		t.Errorf("Source = %q, want %q", p.Source, path)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("pool: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"ves-no-such", "profile ves-no-such: no built-in profile or file of that name (built-ins: "},
		{filepath.Join(dir, "missing.yaml"), "read profile " + filepath.Join(dir, "missing.yaml") + ": open "},
		{dir, "read profile " + dir + ": is a directory"},
		{bad, bad + ":1:7: pool: want a whole number, got a string"},
	}
	for _, tt := range tests {
		_, err := Load(tt.in)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Load(%q) = %v, want an error starting %q", tt.in, err, tt.want)
		}
	}
}

func TestMarshalTrickyBodies(t *testing.T) {
	t.Parallel()
	bodies := []string{
		"\n                {\n  \"a\": 1\n}\n",
		"  indented first line\nsecond\n",
		"trailing spaces  \nnext\n",
		"no final newline\nsecond",
		"tab\tinside\n\n\n",
		"---\n# not a comment\n...\n",
		"${__time()}: {x}\n- y\n",
		"\r\nwindows\r\n",
		"control \x01\x7f and é\n",
		"\ttab first",
	}
	for _, body := range bodies {
		p := &Profile{Name: "tricky", Target: Target{Method: "POST"}, Requests: []Request{{Name: "r", Weight: 1, Body: body}}}
		out, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(out, "tricky")
		if err != nil {
			t.Errorf("body %q: re-parse: %v\n%s", body, err, out)
			continue
		}
		if q.Requests[0].Body != body {
			t.Errorf("body %q reads back as %q from\n%s", body, q.Requests[0].Body, out)
		}
	}
}
