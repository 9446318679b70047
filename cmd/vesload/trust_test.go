package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// runQuick runs a short in-process load against the built-in emulator and
// returns the exit code, stderr and the result written with -o.
func runQuick(t *testing.T, extra ...string) (int, string, *result.Result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"-rps", "20", "-duration", "300ms", "--quiet", "-o", out}, extra...)
	code, _, stderr := cliRun(runRun, args...)
	r, err := report.Read(out)
	if err != nil {
		t.Fatalf("exit %d, stderr %q: %v", code, stderr, err)
	}
	return code, stderr, r
}

// eventIds must stay unique across every run a site will ever make: the
// run id that prefixes them has 64 bits.
func TestRunIDHas64Bits(t *testing.T) {
	t.Parallel()
	_, _, a := runQuick(t)
	_, _, b := runQuick(t)
	hex16 := regexp.MustCompile(`^[0-9a-f]{16}$`)
	if !hex16.MatchString(a.Config.RunID) || !hex16.MatchString(b.Config.RunID) || a.Config.RunID == b.Config.RunID {
		t.Errorf("run ids %q and %q: want two different 16-digit hex ids", a.Config.RunID, b.Config.RunID)
	}
}

// The result records the auth mode, none included, so that an A/B
// comparison can refuse runs that differ in it.
func TestResultRecordsAuthMode(t *testing.T) {
	t.Parallel()
	_, _, r := runQuick(t)
	if r.Config.Auth != "none" {
		t.Errorf("config.auth = %q, want none", r.Config.Auth)
	}
}

// A misspelt single-dash long flag is named, with the flag meant; pflag
// alone says "unknown shorthand flag: 'r' in -rpss".
func TestMisspeltFlagNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-rpss", "100"}, "vesload run: unknown flag: --rpss (did you mean --rps?)\n"},
		{[]string{"--durtion", "1s"}, "vesload run: unknown flag: --durtion (did you mean --duration?)\n"},
		{[]string{"-xyzzy"}, "vesload run: unknown flag: --xyzzy\n"},
	}
	for _, tc := range tests {
		code, _, stderr := cliRun(runRun, tc.args...)
		if code != exitUsage || stderr != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	code, _, stderr := cliRun(runServe, "-listn", "x")
	if code != exitUsage || !strings.Contains(stderr, "did you mean --listen?") {
		t.Errorf("serve -listn: exit %d, stderr %q", code, stderr)
	}
}

func TestClampPool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pool     int
		emulated bool
		limit    int
		want     int
		note     bool
	}{
		{64, false, 1024, 64, false},
		{960, false, 1024, 960, false},
		{961, false, 1024, 960, true},
		{1000, true, 1024, 480, true},
		{100000, false, 256, 192, true},
		{10, false, 32, 1, true},
	}
	for _, tc := range tests {
		got, note := clampPool(tc.pool, tc.emulated, tc.limit)
		if got != tc.want || (note != "") != tc.note {
			t.Errorf("clampPool(%d, %v, %d) = %d %q, want %d (note %v)", tc.pool, tc.emulated, tc.limit, got, note, tc.want, tc.note)
		}
		if tc.note && !strings.Contains(note, "ulimit -n") {
			t.Errorf("note %q does not say how to raise the limit", note)
		}
	}
}
