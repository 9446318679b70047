package profiles

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const templated = `
vars:
  WORKER_IP: ""
  PORT: "30417"
target:
  url: https://${WORKER_IP}:${PORT}/eventListener/v7
  headers: {X-Tenant: "${TENANT}"}
requests:
  - name: jmeter
    body: '{"t": ${__time()}, "host": "${WORKER_IP}", "n": ${__counter(,)}}'
`

func TestVars(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(templated), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.MissingVars(), []string{"TENANT", "WORKER_IP"}; !slices.Equal(got, want) {
		t.Errorf("MissingVars() = %v, want %v", got, want)
	}
	if _, err := p.Resolve(); err == nil || !strings.Contains(err.Error(), "set TENANT, WORKER_IP") {
		t.Errorf("Resolve() with missing vars = %v, want an error naming them", err)
	}
	if err := p.Set("WORKER_IP", "10.0.0.7"); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("TENANT", "onap"); err != nil {
		t.Fatal(err)
	}
	if got := p.MissingVars(); len(got) != 0 {
		t.Errorf("MissingVars() after Set = %v, want none", got)
	}
	r, err := p.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://10.0.0.7:30417/eventListener/v7"; r.Target.URL != want {
		t.Errorf("resolved url = %q, want %q", r.Target.URL, want)
	}
	if want := `{"t": ${__time()}, "host": "10.0.0.7", "n": ${__counter(,)}}`; r.Requests[0].Body != want {
		t.Errorf("resolved body = %q, want %q (functions kept)", r.Requests[0].Body, want)
	}
	if r.Target.Headers["X-Tenant"] != "onap" {
		t.Errorf("resolved header = %q", r.Target.Headers["X-Tenant"])
	}
	if !strings.Contains(p.Target.URL, "${WORKER_IP}") {
		t.Error("Resolve changed the original profile")
	}
}

func TestSetErrors(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(templated), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{
		{"WORKER_ID", "did you mean WORKER_IP?"},
		{"HOSTNAME", "has no variable HOSTNAME (it has PORT, TENANT, WORKER_IP)"},
		{"1BAD", "want NAME=VALUE"},
		{"__time", "want NAME=VALUE"},
	}
	for _, tt := range tests {
		if err := p.Set(tt.name, "x"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Set(%q) = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	plain, err := Parse([]byte("pool: 1\n"), "plain")
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Set("X", "1"); err == nil || !strings.Contains(err.Error(), "uses no variables") {
		t.Errorf("Set on a profile without variables = %v", err)
	}
}

func TestVarsIn(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"":                                 nil,
		"${A}":                             {"A"},
		"x${A}y${b_2}z":                    {"A", "b_2"},
		"${__time()} ${__Random(1,9)} ${}": nil,
		"${unterminated":                   nil,
		"${A.B} ${9X} ${OK}":               {"OK"},
	}
	for in, want := range tests {
		if got := VarsIn(in); !reflect.DeepEqual(got, want) {
			t.Errorf("VarsIn(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestScanBodyFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := filepath.Join(dir, "b.json")
	if err := os.WriteFile(body, []byte(`{"s": "${PNF}", "h": "${HOST}", "t": ${__time()}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &Profile{Vars: map[string]string{"HOST": "h1"}, Requests: []Request{{Name: "b", Weight: 1, BodyFile: body}}}
	if err := p.Set("PNF", "x"); err == nil {
		t.Error("Set accepted a variable before the body file was scanned")
	}
	if err := p.ScanBodyFiles(); err != nil {
		t.Fatal(err)
	}
	if got, want := p.MissingVars(), []string{"PNF"}; !slices.Equal(got, want) {
		t.Errorf("MissingVars() = %v, want %v", got, want)
	}
	if err := p.Set("PNF", "pnf-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Resolve(); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("QQQ", "x"); err == nil || !strings.Contains(err.Error(), "(it has HOST, PNF)") {
		t.Errorf("Set(QQQ) = %v, want the body file's variables listed", err)
	}
	missing := &Profile{Requests: []Request{{Name: "b", Weight: 1, BodyFile: filepath.Join(dir, "nosuch.json")}}}
	if err := missing.ScanBodyFiles(); err == nil || !strings.Contains(err.Error(), "nosuch.json") {
		t.Errorf("ScanBodyFiles on a missing file = %v", err)
	}
}

func TestLabel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    Profile
		want string
	}{
		{Profile{}, "the command line"},
		{Profile{Name: "x", Source: "builtin:ves-100rps-10m"}, "built-in profile ves-100rps-10m"},
		{Profile{Name: "x", Source: "dir/p.yaml"}, "profile dir/p.yaml"},
		{Profile{Name: "imported"}, "profile imported"},
	}
	for _, tt := range tests {
		if got := tt.p.Label(); got != tt.want {
			t.Errorf("Label(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
