package promrw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// parsed returns the output's values with args given on a command line.
func parsed(t *testing.T, args ...string) *Flags {
	t.Helper()
	f := &Flags{}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	f.Add(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return f
}

// writeFile writes a file of the test and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckRefusesInOneLine: every bad value is refused before the run,
// in one line naming the flag; good ones pass.
func TestCheckRefusesInOneLine(t *testing.T) {
	t.Parallel()
	pass := writeFile(t, "pass", "s3cret\n")
	empty := writeFile(t, "empty", "")
	badCA := writeFile(t, "ca.pem", "not a certificate")
	const u = "http://prom:9090/api/v1/write"
	tests := []struct {
		args []string
		want string // "" when accepted
	}{
		{nil, ""},
		{[]string{"--remote-write-url", u}, ""},
		{[]string{"--remote-write-url", u, "--remote-write-user", "vl", "--remote-write-password-file", pass}, ""},
		{[]string{"--remote-write-url", u, "--remote-write-bearer-file", pass}, ""},
		{[]string{"--remote-write-url", "prom:9090/api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", "ftp://prom/api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", "http:///api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", "http://vl:s3cret@prom:9090/api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", u, "--remote-write-timeout", "0s"}, "--remote-write-timeout"},
		{[]string{"--remote-write-url", u, "--remote-write-password-file", "/nonexistent"}, "--remote-write-password-file"},
		{[]string{"--remote-write-url", u, "--remote-write-password-file", pass}, "--remote-write-password-file: give --remote-write-user"},
		{[]string{"--remote-write-url", u, "--remote-write-bearer-file", empty}, "--remote-write-bearer-file"},
		{[]string{"--remote-write-url", u, "--remote-write-user", "vl", "--remote-write-bearer-file", pass}, "--remote-write-bearer-file"},
		{[]string{"--remote-write-url", u, "--remote-write-cacert", badCA}, "--remote-write-cacert"},
		{[]string{"--remote-write-job", "j"}, "--remote-write-job goes with --remote-write-url"},
		{[]string{"--remote-write-insecure"}, "--remote-write-insecure goes with --remote-write-url"},
	}
	for _, tt := range tests {
		err := parsed(t, tt.args...).Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v, want it accepted", tt.args, err)
		case tt.want == "":
		case err == nil:
			t.Errorf("%v: accepted, want an error naming %s", tt.args, tt.want)
		case !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n"):
			t.Errorf("%v: %q, want one line starting with %q", tt.args, err, tt.want)
		case strings.Contains(err.Error(), "s3cret"):
			t.Errorf("%v: %q shows the password", tt.args, err)
		}
	}
}

// TestKubeArgs: the URL, job, insecure and timeout reach the pods;
// credentials and files of this machine are refused in one line, and
// none reaches the arguments.
func TestKubeArgs(t *testing.T) {
	t.Parallel()
	pass := writeFile(t, "pass", "s3cret\n")
	const u = "http://prom:9090/api/v1/write"
	tests := []struct {
		args []string
		want string
		err  string
	}{
		{nil, "", ""},
		{[]string{"--remote-write-url", u}, "--remote-write-url " + u + " --remote-write-job vesload", ""},
		{[]string{"--remote-write-url", u, "--remote-write-job", "ves", "--remote-write-insecure", "--remote-write-timeout", "9s"},
			"--remote-write-url " + u + " --remote-write-job ves --remote-write-insecure --remote-write-timeout 9s", ""},
		{[]string{"--remote-write-url", "http://vl:s3cret@prom:9090/api/v1/write"}, "", "--remote-write-url"},
		{[]string{"--remote-write-url", u, "--remote-write-user", "vl", "--remote-write-password-file", pass}, "", "--remote-write-user: credentials"},
		{[]string{"--remote-write-url", u, "--remote-write-bearer-file", pass}, "", "--remote-write-bearer-file: credentials"},
		{[]string{"--remote-write-url", u, "--remote-write-cacert", pass}, "", "--remote-write-cacert: credentials and files"},
		{[]string{"--remote-write-timeout", "9s"}, "", "--remote-write-timeout goes with --remote-write-url"},
	}
	for _, tt := range tests {
		a, err := parsed(t, tt.args...).KubeArgs()
		got := strings.Join(a, " ")
		switch {
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%v: %q, %v; want one line starting with %q", tt.args, got, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%v: %q, %v; want %q", tt.args, got, err, tt.want)
		case strings.Contains(got, "s3cret") || err != nil && strings.Contains(err.Error(), "s3cret"):
			t.Errorf("%v: %q, %v carries the password", tt.args, got, err)
		}
	}
}
