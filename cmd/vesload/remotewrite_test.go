package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/promtest"
)

// TestRemoteWriteRealPrometheus pushes a run against the built-in
// emulator to Debian's Prometheus with its remote-write receiver on
// (2.42, the 1.0 protocol) and reads it back with PromQL: the requests
// and the successes the counters end on are the result's, every batch
// was written, and the password given in a file shows nowhere.
func TestRemoteWriteRealPrometheus(t *testing.T) {
	t.Parallel()
	prom := promtest.StartReceiver(t)
	dir := t.TempDir()
	out, pass := filepath.Join(dir, "r.json"), filepath.Join(dir, "pass")
	if err := os.WriteFile(pass, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := vesload(t, 60*time.Second, "-rps", "100", "-duration", "3s", "-o", out, "-q", "--run-id", "rw1",
		"--remote-write-url", prom.WriteURL(), "--remote-write-job", "vesload-e2e",
		"--remote-write-user", "vl", "--remote-write-password-file", pass)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if len(res.Written) != 1 || res.Written[0].Failed+res.Written[0].Dropped != 0 || res.Written[0].Batches < 3 {
		t.Fatalf("written %+v, want every batch written", res.Written)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "s3cret") || strings.Contains(o.stderr, "s3cret") {
		t.Error("the password shows in the result or on stderr")
	}
	for _, q := range []struct {
		expr string
		want int64
	}{
		{`sum(vesload_run_requests_total{job="vesload-e2e",run_id="rw1"})`, res.Requests.OK + res.Requests.Errors},
		{`sum(vesload_run_requests_total{job="vesload-e2e",outcome="ok"})`, res.Requests.OK},
	} {
		s, err := prom.Query(q.expr)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 1 {
			t.Fatalf("%s: %v, want one sample", q.expr, s)
		}
		v, _ := s[0].Value[1].(string)
		if n, _ := strconv.ParseFloat(v, 64); int64(n) != q.want || q.want != 300 {
			t.Errorf("%s = %s, the result %d (want 300)", q.expr, v, q.want)
		}
	}
}

// TestRemoteWriteThatNeverAnswersLosesOnlyItself: an endpoint that
// accepts connections and never answers costs the remote write record
// and nothing else: every request is sent on time, the result names
// --remote-write-url with the batches it lost, none written, and the run
// exits 1 once the result is written.
func TestRemoteWriteThatNeverAnswersLosesOnlyItself(t *testing.T) {
	t.Parallel()
	addr, stop := silentServer(t)
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 60*time.Second, "-rps", "200", "-duration", "3s", "-o", out, "-q",
		"--remote-write-url", "http://"+addr+"/api/v1/write", "--remote-write-timeout", "1m")
	if o.code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 600 || res.Errors["pool_exhausted"] != 0 {
		t.Errorf("sent %d, pool_exhausted %d; want all 600 sent", res.Requests.Sent, res.Errors["pool_exhausted"])
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "--remote-write-url" || res.Outputs[0].Batches == 0 {
		t.Errorf("outputs lost %+v, want --remote-write-url with its batches", res.Outputs)
	}
	if len(res.Written) != 1 || res.Written[0].Batches != 0 || res.Written[0].Dropped == 0 {
		t.Errorf("written %+v, want no batch written and the rest dropped", res.Written)
	}
}
