package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
