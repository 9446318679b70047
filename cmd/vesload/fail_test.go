package main

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/vesload/vesload/internal/usage"
)

// TestFail checks the one line and the exit code of a failed command:
// bad usage, however wrapped, is exit 2, anything else exit 1.
func TestFail(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		err      error
		wantCode int
		wantLine string
	}{
		{"usage", usagef("--format: unknown format %q", "pdf"), exitUsage, "vesload: report: --format: unknown format \"pdf\"\n"},
		{"wrapped usage", fmt.Errorf("read: %w", usage.Wrap(errors.New("no such file"))), exitUsage, "vesload: report: read: no such file\n"},
		{"run", errors.New("write r.html: disk full"), exitRun, "vesload: report: write r.html: disk full\n"},
	} {
		var stderr bytes.Buffer
		if code := fail(&stderr, "vesload: report", c.err); code != c.wantCode || stderr.String() != c.wantLine {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, %q", c.name, code, stderr.String(), c.wantCode, c.wantLine)
		}
	}
}

// TestDispatchUnknownCommand checks that an unknown command, run or
// asked help for, is one line and exit 2.
func TestDispatchUnknownCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"nope"}, {"help", "nope"}} {
		var stdout, stderr bytes.Buffer
		code := dispatch(args, &stdout, &stderr)
		want := "vesload: unknown command \"nope\" (see 'vesload help')\n"
		if code != exitUsage || stdout.Len() != 0 || stderr.String() != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, stdout.String(), stderr.String(), want)
		}
	}
}

// A misspelt subcommand, of vesload or of profiles, is named with the
// command meant, as a misspelt flag is.
func TestMisspeltCommandNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"comapre"}, "vesload: unknown command \"comapre\" (did you mean compare?) (see 'vesload help')\n"},
		{[]string{"help", "serv"}, "vesload: unknown command \"serv\" (did you mean serve?) (see 'vesload help')\n"},
		{[]string{"improt-jmx"}, "vesload: unknown command \"improt-jmx\" (did you mean import-jmx?) (see 'vesload help')\n"},
		{[]string{"profiles", "chekc", "x.yaml"}, "vesload profiles: unknown command \"chekc\" (did you mean check?): want show NAME or check FILE (or nothing, to list the built-ins)\n"},
	}
	for _, tc := range tests {
		code, stdout, stderr := cliRun(dispatch, tc.args...)
		if code != exitUsage || stdout != "" || stderr != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
