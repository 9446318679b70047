package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/report/resultfile"
)

// mergeBinary runs `vesload merge args...` through the built binary with
// stdin on its standard input.
func mergeBinary(t *testing.T, stdin string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"merge"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("vesload merge: %v", err)
	}
	return o
}

// TestMergeNoSuccessFails: four shards against a target that answers
// every request with an error each pass on their own (their gates wait for
// the merge), so the merge must hold the merged run to the built-in rule:
// exit 3, "no request succeeded", from result files and from the pods'
// logs alike; --allow-errors, given to the shards or to merge, lets it pass.
func TestMergeNoSuccessFails(t *testing.T) {
	t.Parallel()
	base, stop := startServe(t, "--error-rate", "1")
	defer stop()
	const shards = 4
	dir := t.TempDir()
	shardArgs := func(runID string, extra ...string) []string {
		at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
		return append([]string{"-url", base + "/eventListener/v7", "-rps", "40", "-duration", "1s",
			"--shard", fmt.Sprintf("auto/%d", shards), "--run-id", runID, "--start-at", at, "--start-tolerance", "2s",
			"-o", "-", "-q"}, extra...)
	}
	logs := runShards(t, shards, shardArgs("all-refused"))
	for i, l := range logs {
		if !strings.Contains(l, "Verdict: DEFERRED (exit 0)") || !strings.Contains(l, "its gates are decided on the merged result (vesload merge)") {
			t.Errorf("shard %d does not defer its gates to the merge:\n%s", i, l)
		}
	}
	pods := strings.Join(logs, "")

	// The result files, as written by the shards, merged by name.
	rs, _, err := resultfile.ScanResults(strings.NewReader(pods), "pods")
	if err != nil || len(rs) != shards {
		t.Fatalf("%d results in the logs: %v", len(rs), err)
	}
	var files []string
	for i, r := range rs {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if err := resultfile.Write(p, r); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"files", "", append(files, "-o", filepath.Join(dir, "merged.json"))},
		{"stdin", pods, []string{"-", "-o", filepath.Join(dir, "merged-stdin.json")}},
	} {
		o := mergeBinary(t, c.stdin, c.args...)
		if o.code != exitThreshold || !strings.Contains(o.stderr, "no request succeeded") {
			t.Errorf("%s: exit %d, want 3 saying no request succeeded; stderr:\n%s", c.name, o.code, o.stderr)
			continue
		}
		m := readResult(t, c.args[len(c.args)-1])
		if m.Requests.Sent != 40 || m.Requests.OK != 0 {
			t.Errorf("%s: merged requests %+v, want 40 sent, none ok", c.name, m.Requests)
		}
		if g := gate(m, "ok>0"); g == nil || g.Pass {
			t.Errorf("%s: merged gates %+v, want ok>0 failing", c.name, m.Thresholds)
		}
	}

	// --allow-errors on merge, or recorded by the shards, lets it pass.
	if o := mergeBinary(t, pods, "-", "--allow-errors", "-o", filepath.Join(dir, "allowed.json")); o.code != exitOK {
		t.Errorf("merge --allow-errors: exit %d: %s", o.code, o.stderr)
	}
	allowed := strings.Join(runShards(t, shards, shardArgs("all-refused-allowed", "--allow-errors")), "")
	if o := mergeBinary(t, allowed, "-", "-o", filepath.Join(dir, "allowed-shards.json")); o.code != exitOK {
		t.Errorf("shards run with --allow-errors: merge exit %d: %s", o.code, o.stderr)
	}
}

// TestMergeHVNothingReceivedFails: HV-VES shards sending plain TCP to a
// TLS listener write every message, yet the receiver counts none; each
// shard defers to the merge, which fails (exit 3) on hv.received>0.
func TestMergeHVNothingReceivedFails(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	addr, mon := startServeHV(t, "--hv-tls-cert", cert, "--hv-tls-key", key)
	const shards = 2
	at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
	logs := runShards(t, shards, []string{"hv", "--addr", addr, "--producers", "2", "--messages", "10", "--interval", "5ms",
		"--settle", "1s", "--target-metrics", mon + "/monitoring/prometheus", "--shard", fmt.Sprintf("auto/%d", shards),
		"--run-id", "hv-none", "--start-at", at, "--start-tolerance", "2s", "-o", "-", "-q"})
	out := filepath.Join(t.TempDir(), "merged.json")
	o := mergeBinary(t, strings.Join(logs, ""), "-", "-o", out)
	if o.code != exitThreshold || !strings.Contains(o.stderr, "received none") {
		t.Fatalf("exit %d, want 3 saying the receiver received none; stderr:\n%s", o.code, o.stderr)
	}
	m := readResult(t, out)
	if g := gate(m, "hv.received>0"); g == nil || g.Pass {
		t.Errorf("merged gates %+v, want hv.received>0 failing", m.Thresholds)
	}
	if m.HV == nil || m.HV.Receiver == nil || m.HV.Receiver.Received != 0 || m.HV.Sent.Written == 0 {
		t.Errorf("merged hv %+v", m.HV)
	}
}
