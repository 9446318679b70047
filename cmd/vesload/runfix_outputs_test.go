package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Every output path is checked before the load, so a bad folder costs
// nothing: one line, exit 2, and no traffic.
func TestOutputPathsCheckedBeforeTheRun(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"-o", "--html", "--junit", "--jtl", "--hdr-log", "--markdown", "--csv"} {
		o := vesload(t, 30*time.Second, "-duration", "3s", "-q", flag, "/nonexistent/x.out")
		if o.code != exitUsage {
			t.Errorf("%s: exit %d, want %d\nstderr: %s", flag, o.code, exitUsage, o.stderr)
			continue
		}
		if o.elapsed > 2*time.Second {
			t.Errorf("%s: failed after %v: the load ran before the check", flag, o.elapsed)
		}
		lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], flag+" /nonexistent/x.out") || !strings.Contains(lines[0], "/nonexistent") {
			t.Errorf("%s: stderr %q, want one line naming the flag and the folder", flag, o.stderr)
		}
	}
}

// An output that cannot be written after the run is saved beside, in the
// temporary folder, as the result document is; the others are still written.
func TestFailedOutputSavedBeside(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	md := filepath.Join(dir, "ok.md")
	f := &reportFiles{html: "/nonexistent/x.html", markdown: md}
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r1"}}
	var stdout, stderr bytes.Buffer
	err := f.write(context.Background(), res, &stdout, &stderr)
	if err == nil {
		t.Fatal("writing to a missing folder did not fail")
	}
	saved := filepath.Join(dir, "vesload-html-r1.html")
	if !strings.Contains(err.Error(), "saved to "+saved) {
		t.Fatalf("error %q does not say where the HTML went (%s)", err, saved)
	}
	if b, err := os.ReadFile(saved); err != nil || !bytes.Contains(b, []byte("<html")) {
		t.Fatalf("saved HTML: %v, %.80q", err, b)
	}
	if _, err := os.Stat(md); err != nil {
		t.Errorf("the Markdown after the failed HTML was not written: %v", err)
	}
}

// vesload hv checks its output files before any message is sent, as run
// does.
func TestHVOutputPathsCheckedBeforeTheRun(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--producers", "1", "--messages", "10", "--html", "/nonexistent/x.html"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "--html /nonexistent/x.html") || strings.Count(stderr.String(), "\n") != 1 {
		t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming --html", code, stderr.String())
	}
}
