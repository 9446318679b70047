package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/grafana"
	"github.com/vesload/vesload/internal/promtest"
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
	metricsAddr := fmt.Sprintf("127.0.0.1:%d", promtest.FreePort(t))
	prom := promtest.Start(t, metricsAddr)
	url, pid, stop := startServeProc(t, "--publish-time", "30ms")
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, binary, "-url", url+"/eventListener/v7", "-rps", "100", "-duration", "20s",
		"-pool", "2", "--metrics-addr", metricsAddr, "--target-pid", strconv.Itoa(pid),
		"--prom-url", prom.URL, "--prom-query", "scraped=count(up)", "-q")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = run.Process.Kill() // the run is only a source of metrics; stop it by its pid
		_ = run.Wait()
	}()

	pending := map[string]string{}
	for _, e := range exprs {
		pending[e] = grafana.Expand(e, "5s", "1m")
	}
	deadline := time.Now().Add(18 * time.Second)
	for len(pending) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Second)
		for orig, expr := range pending {
			samples, err := prom.Query(expr)
			if err != nil {
				t.Fatalf("%s: %v", orig, err)
			}
			if len(samples) > 0 {
				delete(pending, orig)
			}
		}
	}
	for orig, expr := range pending {
		t.Errorf("no data for the dashboard query %s (evaluated as %s)", orig, expr)
	}
	if len(pending) > 0 {
		up, _ := prom.Query(`up{job="vesload"}`)
		t.Logf("up: %v", up)
	}
}
