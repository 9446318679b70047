package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/grafana"
	"github.com/vesload/vesload/internal/proctest"
	"github.com/vesload/vesload/internal/promtest"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/resultfile"
)

// TestDashboardQueriesOnRealPrometheus has a real Prometheus scrape
// --metrics-addr during a run and evaluates every PromQL expression of
// deploy/grafana/vesload.json through its HTTP API: each must return
// data. The run has a target to sample (CPU, memory, a PromQL series)
// and a pool too small for its rate, so that the error panels have
// errors to show.
func TestDashboardQueriesOnRealPrometheus(t *testing.T) {
	t.Parallel()
	exprs, err := grafana.Queries(filepath.Join("..", "..", "deploy", "grafana", "vesload.json"))
	if err != nil || len(exprs) < 10 {
		t.Fatalf("dashboard queries: %v (%d found)", err, len(exprs))
	}
	metricsAddr := fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(t))
	prom := promtest.Start(t, metricsAddr)
	url, pid, stop := startServeProc(t, "--publish-time", "30ms")
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	out := filepath.Join(t.TempDir(), "r.json")
	run := exec.CommandContext(ctx, binary, "-url", url+"/eventListener/v7", "-rps", "100", "-duration", "20s",
		"-pool", "2", "--metrics-addr", metricsAddr, "--target-pid", strconv.Itoa(pid),
		"--prom-url", prom.URL, "--prom-query", "scraped=count(up)", "-o", out, "-q")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = run.Process.Kill()
			_ = run.Wait()
		}
	}()

	pending := map[string]string{}
	for _, e := range exprs {
		pending[e] = grafana.Expand(e, "5s", "1m")
	}
	// The run's own --prom-query went through this Prometheus' query API
	// and came back as a target series: count(up) is 1 once it scrapes.
	pending["--prom-query scraped=count(up)"] = `vesload_target_series{series="scraped"} == 1`
	waitfor.True(18*time.Second, time.Second, func() bool {
		for orig, expr := range pending {
			samples, err := prom.Query(expr)
			if err != nil {
				t.Fatalf("%s: %v", orig, err)
			}
			if len(samples) > 0 {
				delete(pending, orig)
			}
		}
		return len(pending) == 0
	})
	for orig, expr := range pending {
		t.Errorf("no data for the dashboard query %s (evaluated as %s)", orig, expr)
	}
	if len(pending) > 0 {
		up, _ := prom.Query(`up{job="vesload"}`)
		t.Logf("up: %v", up)
	}

	// Interrupted, the run still writes its result: its timeline shows
	// the pool full (2 in flight) and the generator's memory.
	_ = run.Process.Signal(os.Interrupt)
	err = run.Wait()
	stopped = true
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("interrupted run: %v, want exit %d", err, exitInterrupted)
	}
	res, err := resultfile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	var maxFlight, maxRSS int64
	for _, s := range res.Timeline {
		maxFlight, maxRSS = max(maxFlight, s.InFlight), max(maxRSS, s.GenRSSBytes)
	}
	if maxFlight != 2 || maxRSS == 0 {
		t.Errorf("timeline: at most %d in flight (want the pool of 2), generator RSS up to %d", maxFlight, maxRSS)
	}
}
