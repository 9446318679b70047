// Package golden compares test output with files under testdata, and
// rewrites them when a test binary runs with -update, so that every
// package's golden tests behave the same way.
package golden

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// Check compares got with the file at path, or rewrites the file under
// -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run the test with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run the test with -update after checking the change)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
