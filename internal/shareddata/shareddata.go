// Package shareddata finds the ONAP reference material (VES schemas,
// sample events, JMeter plans) that tests read from the shared folder
// beside the repository. The material is never copied into the project:
// tests skip with a clear message when it is missing, and fail instead when
// VESLOAD_REQUIRE_SHARED=1 (as CI sets it).
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the path of the shared folder's subfolder sub (for example
// "ves" or "jmeter"). The shared folder is $VESLOAD_SHARED when set, else
// "../shared" next to the module root.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	root := os.Getenv("VESLOAD_SHARED")
	if root == "" {
		mod, err := moduleRoot()
		if err != nil {
			tb.Fatalf("find module root: %v", err)
		}
		root = filepath.Join(mod, "..", "shared")
	}
	dir := filepath.Join(root, sub)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		msg := "shared reference data not found at " + dir + " (set VESLOAD_SHARED to the shared folder)"
		if os.Getenv("VESLOAD_REQUIRE_SHARED") == "1" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return dir
}

// moduleRoot walks up from the working directory (a test's package
// folder) to the folder that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
