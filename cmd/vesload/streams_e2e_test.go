package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFailingStreamKeepsTheResult: a JTL or HdrHistogram log on a full
// disk (/dev/full) stops alone; the result and the HTML report are still
// written, with a warning naming the stream, and the run exits 1: a
// record asked for is incomplete.
func TestFailingStreamKeepsTheResult(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	for _, flag := range []string{"--jtl", "--hdr-log"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
			o := vesload(t, 60*time.Second, "-rps", "20", "-duration", "1s", flag, "/dev/full", "-o", out, "--html", page, "-q")
			if o.code != 1 {
				t.Fatalf("exit %d, want 1\nstderr: %s", o.code, o.stderr)
			}
			res := readResult(t, out)
			if len(res.Outputs) != 1 || res.Outputs[0].Name != flag+" /dev/full" {
				t.Errorf("outputs lost %+v, want %s /dev/full", res.Outputs, flag)
			}
			if res.Requests.OK != 20 || !hasWarning(res, flag+" /dev/full stopped after 0 rows: write /dev/full: no space left on device") {
				t.Errorf("requests %+v warnings %q", res.Requests, res.Warnings)
			}
			if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), flag+" /dev/full stopped") {
				t.Errorf("the HTML report lacks the warning (%v)", err)
			}
		})
	}
}
