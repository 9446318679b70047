package main

import (
	"path/filepath"
	"regexp"
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
