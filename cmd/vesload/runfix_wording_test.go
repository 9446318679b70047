package main

import (
	"strings"
	"testing"
)

// The wording a new user meets: version, help for one command, and the
// errors of bad flag values name every accepted value and the flag.
func TestWordingOfFlagsAndCommands(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string // parts of stdout and stderr ("" for no check)
		notErr   string
	}{
		{"--version", []string{"--version"}, exitOK, "vesload " + version, "", ""},
		{"-version", []string{"-version"}, exitOK, "vesload " + version, "", ""},
		{"help run", []string{"help", "run"}, exitOK, "--abort-on-fail", "", ""},
		{"help serve", []string{"help", "serve"}, exitOK, "--compat", "", ""},
		{"help unknown", []string{"help", "nope"}, exitUsage, "", `unknown command "nope"`, ""},
		{"serve --compat v9", []string{"serve", "--compat", "v9"}, exitUsage, "", "kafka", ""},
		{"--consume bogus", []string{"--consume", "bogus://x", "-duration", "1s", "-q"}, exitUsage, "", "dmaap://", ""},
		{"--data-per foo", []string{"--data-per", "foo", "-duration", "1s", "-q"}, exitUsage, "", "--data-per", "open :"},
		{"--data-per worker alone", []string{"--data-per", "worker", "-duration", "1s", "-q"}, exitUsage, "", "--data-file", "open :"},
		// Each error speaks of the flag given, not of Go's parsers or of
		// profile keys the user never wrote.
		{"--target-pid abc", []string{"--target-pid", "abc", "-duration", "1s", "-q"}, exitUsage, "", `invalid argument "abc" for "--target-pid" flag: must be an integer`, "strconv"},
		{"-H Authorization", []string{"-H", "Authorization: Basic c2VjcmV0", "--dry-run"}, exitUsage, "", "--header Authorization: credentials are not given on the command line", "target.auth"},
		{"-H Authorization keeps the secret", []string{"-H", "Authorization: Basic c2VjcmV0", "--dry-run"}, exitUsage, "", "--user with --password-file", "c2VjcmV0"},
		{"serve --listen 8080", []string{"serve", "--listen", "8080"}, exitUsage, "", `invalid argument "8080" for "--listen" flag: want HOST:PORT: ":8080" listens on every interface`, "missing port"},
		{"serve --listen port out of range", []string{"serve", "--listen", "127.0.0.1:99999"}, exitUsage, "", "port 99999 out of range", "invalid port"},
		{"--metrics-addr 9465", []string{"--metrics-addr", "9465", "-duration", "1s", "-q"}, exitUsage, "", `":9465" listens on every interface`, "missing port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cliRun(dispatch, tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.out) || !strings.Contains(stderr, tt.err) ||
				(tt.notErr != "" && strings.Contains(stderr, tt.notErr)) {
				t.Fatalf("exit %d (want %d)\nstdout %.300q (want %q)\nstderr %q (want %q, not %q)",
					code, tt.code, stdout, tt.out, stderr, tt.err, tt.notErr)
			}
		})
	}
}
