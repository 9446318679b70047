// Package chromiumtest finds the real browser that tests render vesload's
// pages in (Debian's chromium package), for tests only.
package chromiumtest

import (
	"os"
	"testing"
)

// Path is where Debian's chromium package installs the browser.
const Path = "/usr/bin/chromium"

// Need returns Path, or skips the test when Chromium is not installed,
// unless VESLOAD_REQUIRE_CHROMIUM=1 (CI) makes its absence a failure. why
// says what the test would have shown in the browser.
func Need(tb testing.TB, why string) string {
	tb.Helper()
	if _, err := os.Stat(Path); err != nil {
		if os.Getenv("VESLOAD_REQUIRE_CHROMIUM") == "1" {
			tb.Fatalf("VESLOAD_REQUIRE_CHROMIUM=1 but %s is missing: install Debian's chromium package", Path)
		}
		tb.Skipf("%s not found: install Debian's chromium package to %s", Path, why)
	}
	return Path
}
