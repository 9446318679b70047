package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/profiles"
)

// env is a fixed environment for the tests: no test reads the real one.
func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for _, e := range kv {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

// commandLine is the scenario the command line makes of its defaults
// alone (`vesload -url URL`): 10/s for 10 s of fault events.
func commandLine(url string) *profiles.Profile {
	on := true
	return &profiles.Profile{
		Target:    profiles.Target{URL: url},
		Pool:      64,
		Timeout:   10 * time.Second,
		KeepAlive: &on,
		Load:      profiles.Shape{RPS: 10, Duration: 10 * time.Second},
		Requests:  []profiles.Request{{Name: "fault", Weight: 1, Event: "fault"}},
	}
}

// parse reads a profile from YAML text written to dir/name, as a user's
// file would be, so that relative body files resolve against dir.
func parse(t *testing.T, dir, name, text string) *profiles.Profile {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := profiles.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func builtin(t *testing.T, name, url string) *profiles.Profile {
	t.Helper()
	p, err := profiles.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	p.Target.URL = url
	return p
}

const faultTemplate = `{"event": {"commonEventHeader": {"domain": "fault", "eventId": "{{.EventID}}",
  "sourceName": "${PNF}", "sequence": {{.Seq}}, "startEpochMicrosec": {{.EpochMicros}}}}}
`

const mixProfile = `name: mix
vars:
  HOST: collector.example
  TENANT: ""
target:
  url: https://${HOST}:8443/eventListener/v7
  headers: {X-Tenant: "${TENANT}", X-Api-Key: k3y}
  auth: {user: sample1, password_env: VES_PW}
  tls: {insecure: true}
pool: 16
pool_wait: 50ms
timeout: 2s
keepalive: false
load:
  ramp: {from: 10, to: 50, over: 4s}
requests:
  - name: faults
    weight: 3
    event: fault
    batch: 4
  - name: templated
    path: /eventListener/v7
    body: '{"event": {"commonEventHeader": {"domain": "heartbeat", "eventId": "{{.EventID}}", "reportingEntityName": "${HOST}"}}}'
    headers: {X-Kind: hb}
thresholds: [p99<500ms]
`

// TestCompile: this scenario (a profile, flags laid over it by the
// command line, --set variables, the environment) gives this plan.
func TestCompile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fault.json"), []byte(faultTemplate), 0o600); err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:8080/eventListener/v7"
	tests := []struct {
		name    string
		profile *profiles.Profile
		sets    []string
		env     []string
	}{
		{name: "command-line", profile: commandLine(url)},
		{name: "command-line-user-in-url", profile: commandLine("http://sample1:pw@127.0.0.1:8080/eventListener/v7")},
		{name: "command-line-user-env", profile: func() *profiles.Profile {
			p := commandLine(url)
			p.Target.Auth = &profiles.Auth{User: "sample1", PasswordEnv: "VESLOAD_PASSWORD"}
			return p
		}(), env: []string{"VESLOAD_PASSWORD=from-env"}},
		{name: "ves-100rps-10m", profile: builtin(t, "ves-100rps-10m", url)},
		{name: "ingress-concurrency-ramp", profile: builtin(t, "ingress-concurrency-ramp", url)},
		{name: "hv-producers-8k", profile: builtin(t, "hv-producers-8k", url)},
		{name: "mix", profile: parse(t, dir, "mix.yaml", mixProfile), sets: []string{"TENANT=onap"}, env: []string{"VES_PW=s3cr3t"}},
		{name: "body-file-set", profile: parse(t, dir, "body.yaml", "target: {url: "+url+"}\nload: {rps: 5, duration: 2s}\nrequests:\n  - body_file: fault.json\n"), sets: []string{"PNF=pnf-7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resolved, err := Resolve(tt.profile, tt.sets)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := Compile(resolved, Options{Version: "test", RunID: "run1", LookupEnv: env(tt.env...)})
			if err != nil {
				t.Fatal(err)
			}
			// Body files live in a fresh folder each run.
			got := strings.ReplaceAll(string(describePlan(t, pl)), dir, "$DIR")
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), []byte(got))
		})
	}
}

// describePlan renders what a plan makes the engine do, and the result's
// description of it, as text for a golden file. Passwords appear as their
// length only.
func describePlan(t *testing.T, pl *Plan) []byte {
	t.Helper()
	var b strings.Builder
	c, o := pl.Config, pl.REST
	fmt.Fprintf(&b, "url: %s\nmethod: %s\nlabel: %s\nuser: %q password: %d bytes\n", o.URL, o.Method, pl.Label, o.User, len(o.Password))
	fmt.Fprintf(&b, "pool: %d pool_wait: %v timeout: %v keepalive: %v no_preflight: %v user_agent: %s\n",
		c.Pool, c.PoolWait, c.Timeout, o.KeepAlive, c.NoPreflight, o.UserAgent)
	fmt.Fprintf(&b, "tls: %+v\n", o.TLS)
	for _, h := range o.Headers {
		fmt.Fprintf(&b, "header: %s: %s\n", h.Name, h.Value)
	}
	if s, ok := c.Load.(*engine.Schedule); ok {
		fmt.Fprintf(&b, "schedule: %d requests over %v\n", s.Total(), s.Span())
		for _, g := range s.Segments() {
			fmt.Fprintf(&b, "  segment: %g→%g/s for %v\n", g.From, g.To, g.Duration)
		}
	}
	if cl, ok := c.Load.(*engine.Closed); ok {
		fmt.Fprintf(&b, "closed: concurrency %v, step %v\n", cl.Concurrency, cl.Step)
	}
	if c.Body != nil {
		fmt.Fprintf(&b, "body: %s\n", firstBody(c.Body))
	}
	if len(c.Mix) > 0 && len(o.Kinds) != len(c.Mix) {
		t.Fatalf("%d request kinds, %d targets", len(c.Mix), len(o.Kinds))
	}
	for i, r := range c.Mix {
		k := o.Kinds[i]
		fmt.Fprintf(&b, "request %s: weight %d, %s, headers %v\n  body: %s\n", r.Name, r.Weight, k.URL, k.Headers, firstBody(r.Body))
	}
	rc, err := json.MarshalIndent(pl.RunConfig, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("run config: ")
	b.Write(rc)
	b.WriteString("\n")
	return []byte(b.String())
}

// firstBody renders request 0 at a fixed due time, cut to 300 bytes.
func firstBody(body engine.Body) string {
	out := body.AppendBody(nil, 0, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if len(out) > 300 {
		return fmt.Sprintf("%s… (%d bytes)", out[:300], len(out))
	}
	return string(out)
}

// TestCompileErrors: scenarios that must not run, each refused with one
// line saying what is missing and where it came from, and no password.
func TestCompileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fault.json"), []byte(faultTemplate), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty.pw"), []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:8080/eventListener/v7"
	withAuth := func(a profiles.Auth) *profiles.Profile {
		p := commandLine(url)
		p.Target.Auth = &a
		return p
	}
	bodyFile := func() *profiles.Profile {
		p := commandLine(url)
		p.Requests = []profiles.Request{{Name: "template", Weight: 1, BodyFile: filepath.Join(dir, "fault.json")}}
		return p
	}
	tests := []struct {
		name    string
		profile *profiles.Profile
		sets    []string
		env     []string
		want    []string
	}{
		{name: "required variable used only in a body file",
			profile: parse(t, dir, "req.yaml", "target: {url: "+url+"}\nvars: {PNF: \"\"}\nrequests:\n  - body_file: fault.json\n"),
			want:    []string{"profile " + filepath.Join(dir, "req.yaml"), "set PNF"}},
		{name: "body file variable never given", profile: bodyFile(), want: []string{"the command line", "set PNF"}},
		{name: "set names no variable of the body file", profile: bodyFile(), sets: []string{"QQQ=x"},
			want: []string{"--set QQQ", "the command line has no variable QQQ (it has PNF)"}},
		{name: "set without a variable", profile: commandLine(url), sets: []string{"X=1"}, want: []string{"--set X", "the command line uses no variables"}},
		{name: "set a built-in has no variable for", profile: builtin(t, "ves-100rps-10m", url), sets: []string{"X=1"},
			want: []string{"built-in profile ves-100rps-10m uses no variables"}},
		{name: "set without a value", profile: bodyFile(), sets: []string{"PNF"}, want: []string{`--set "PNF": want NAME=VALUE`}},
		{name: "password variable unset", profile: withAuth(profiles.Auth{User: "sample1", PasswordEnv: "VESLOAD_PASSWORD"}),
			want: []string{"no password for user sample1", "$VESLOAD_PASSWORD is empty or not set"}},
		{name: "password variable empty", profile: withAuth(profiles.Auth{User: "sample1", PasswordEnv: "PW"}), env: []string{"PW="},
			want: []string{"no password for user sample1", "$PW"}},
		{name: "password file empty", profile: withAuth(profiles.Auth{User: "sample1", PasswordFile: filepath.Join(dir, "empty.pw")}),
			want: []string{"no password for user sample1: password file " + filepath.Join(dir, "empty.pw") + " is empty"}},
		{name: "password file missing", profile: withAuth(profiles.Auth{User: "sample1", PasswordFile: filepath.Join(dir, "nosuch")}),
			want: []string{"password file", "nosuch"}},
		{name: "URL user without a password", profile: commandLine("http://sample1@127.0.0.1:8080/x"),
			want: []string{"no password for user sample1", "$VESLOAD_PASSWORD"}},
		{name: "shape schedules nothing", profile: func() *profiles.Profile {
			p := commandLine(url)
			p.Load = profiles.Shape{RPS: 0.1, Duration: time.Second}
			return p
		}(), want: []string{"schedules no request"}},
		{name: "URL of another scheme", profile: commandLine("ftp://u:pw@host/x"), want: []string{"the command line: target.url", `"ftp://u:xxxxx@host/x"`}},
		{name: "port out of range", profile: commandLine("http://u:pw@127.0.0.1:99999/x"), want: []string{"port 99999 out of range", `"http://u:xxxxx@127.0.0.1:99999/x"`}},
		{name: "port zero", profile: commandLine("http://127.0.0.1:0/x"), want: []string{"port 0 out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := compile(tt.profile, tt.sets, tt.env)
			if err == nil {
				t.Fatal("compiled, want an error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || strings.Contains(msg, "profile  ") || strings.Contains(msg, "pw@") {
				t.Errorf("error %q: want one line naming the source", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
		})
	}
}

func compile(p *profiles.Profile, sets, kv []string) error {
	resolved, err := Resolve(p, sets)
	if err != nil {
		return err
	}
	_, err = Compile(resolved, Options{RunID: "run1", LookupEnv: env(kv...)})
	return err
}
