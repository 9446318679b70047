package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Two outputs that name one file, however spelled, are bad usage found
// before any request: the one written last would replace the other.
func TestTwoOutputsOnOneFileRefusedBeforeTheLoad(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	dir := t.TempDir()
	same := filepath.Join(dir, "same.out")
	link := filepath.Join(dir, "link.out")
	if err := os.Symlink(same, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flags []string
		want  string
	}{
		{"result and HTML", []string{"-o", same, "--html", same}, "-o " + same + " and --html " + same},
		{"relative and absolute", []string{"--csv", same, "--markdown", filepath.Join(dir, ".", "sub", "..", "same.out")}, "--markdown"},
		{"through a symlink", []string{"--jtl", link, "--hdr-log", same}, "--jtl " + link},
		{"JUnit and JTL", []string{"--junit", same, "--jtl", same}, "name the same file"},
	}
	for _, tc := range tests {
		args := append([]string{"-url", srv.URL + "/eventListener/v7", "-rps", "50", "-duration", "2s", "-q"}, tc.flags...)
		o := vesload(t, 30*time.Second, args...)
		if o.code != exitUsage {
			t.Errorf("%s: exit %d, want %d\nstderr: %s", tc.name, o.code, exitUsage, o.stderr)
			continue
		}
		if lines := strings.Split(strings.TrimSpace(o.stderr), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%s: stderr %q, want one line saying %q", tc.name, o.stderr, tc.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the target got %d requests before the outputs were refused", n)
	}
	if _, err := os.Stat(same); err == nil {
		t.Errorf("%s was written by a refused run", same)
	}
}

// The null device may take several outputs: nothing is lost there.
func TestNullDeviceTakesSeveralOutputs(t *testing.T) {
	t.Parallel()
	if err := checkOutputPaths([]flagPath{{"--jtl", os.DevNull}, {"--hdr-log", os.DevNull}, {"-o", "-"}, {"--csv", ""}, {"--html", ""}}); err != nil {
		t.Fatalf("refused: %v", err)
	}
}

// A rendering that cannot be written is saved under its format's own
// extension, as the README promises (vesload-<kind>-<run id>.<ext>),
// whatever name the flag gave it.
func TestFailedRenderingKeepsItsFormatsExtension(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	f := &reportFiles{html: "/nonexistent/report", junit: "/nonexistent/junit.txt", markdown: "/nonexistent/summary", csv: "/nonexistent/timeline"}
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r2"}}
	var stdout, stderr bytes.Buffer
	err := f.write(context.Background(), res, &stdout, &stderr)
	if err == nil {
		t.Fatal("writing to a missing folder did not fail")
	}
	for _, name := range []string{"vesload-html-r2.html", "vesload-junit-r2.xml", "vesload-markdown-r2.md", "vesload-csv-r2.csv"} {
		saved := filepath.Join(dir, name)
		if !strings.Contains(err.Error(), "saved to "+saved) {
			t.Errorf("error %q does not name %s", err, saved)
		}
		if _, serr := os.Stat(saved); serr != nil {
			t.Errorf("%s: %v", name, serr)
		}
	}
}
