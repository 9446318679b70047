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
