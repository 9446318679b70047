package jmx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ImportFile reads a plan from disk; RenderLoadable writes a profile that
// loads; Summary says what it sends and what is missing.
func TestImportFileRenderSummary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "ves.jmx")
	text := plan(false, nil, threadGroup(tg{threads: "10", ramp: "5", loops: "1"},
		httpSampler(sampler{name: "fault", protocol: "http", domain: "${WORKER_IP}", port: "8080", path: "/eventListener/v7",
			body: `{"event": {"commonEventHeader": {"domain": "fault"}}}`})))
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	p, warns, err := ImportFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RenderLoadable(p, "ves.jmx", warns)
	if err != nil || !strings.HasPrefix(string(out), "# Imported from JMeter plan ves.jmx.\n") {
		t.Fatalf("RenderLoadable: %v\n%s", err, out)
	}
	want := "ves: 10 requests over 5s, mean 2 rps; written to stdout; before a run, set WORKER_IP with --url or --set WORKER_IP=…"
	if got := Summary(p, 0, "stdout"); got != want {
		t.Errorf("Summary:\n got %q\nwant %q", got, want)
	}
	if err := p.SetAll([]string{"WORKER_IP=collector"}); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{0: "mean 2 rps; written to p.yaml", 1: "; 1 warning; written to p.yaml", 3: "; 3 warnings; written to p.yaml"} {
		if got := Summary(p, n, "p.yaml"); !strings.HasSuffix(got, want) {
			t.Errorf("Summary with %d warnings, all set: %q, want it to end with %q", n, got, want)
		}
	}

	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.jmx"), "open JMeter plan: "},
		{dir, "JMeter plan " + dir + ": is a directory"},
	} {
		if _, _, err := ImportFile(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ImportFile(%s): %v, want %q", tt.path, err, tt.want)
		}
	}
}
