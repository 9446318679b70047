package metrics

import (
	"io"
	"net/http"
	"testing"

	"github.com/vesload/vesload/internal/promtest"
)

// TestPromtoolCheckMetrics runs Prometheus' own linter on the live
// /metrics of a run that has seen every kind of figure: no reserved label
// (a gauge's "quantile"), no name or type it would refuse.
func TestPromtoolCheckMetrics(t *testing.T) {
	t.Parallel()
	l, err := StartLive("127.0.0.1:0", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(func(string) {})
	observeAll(l.Exporter)
	client := &http.Client{}
	defer client.CloseIdleConnections()
	resp, err := client.Get("http://" + l.Addr + MetricsPath)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %v %s", err, resp.Status)
	}
	if problems := promtest.CheckMetrics(t, body); problems != "" {
		t.Errorf("promtool check metrics:\n%s", problems)
	}
}
