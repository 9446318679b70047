// Package promtest starts a private Prometheus server (Debian's
// prometheus package) on 127.0.0.1 for tests that have it scrape a
// vesload run, or receive one through remote write, and evaluate PromQL
// through its HTTP API. It has its own
// storage directory and a free port, scrapes every second, and stops
// with the test. Tests skip when prometheus is not installed, unless
// VESLOAD_REQUIRE_PROMETHEUS=1 (as CI sets it) makes that a failure.
package promtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proctest"
)

const config = `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: vesload
    metrics_path: /metrics
    static_configs:
      - targets: [%q]
`

// receiverConfig scrapes nothing: what the server holds was pushed.
const receiverConfig = `global:
  evaluation_interval: 1s
`

// Server is a running Prometheus.
type Server struct {
	// URL is the server's base, http://127.0.0.1:PORT.
	URL string
}

// Start runs Prometheus scraping target (host:port) as job "vesload".
func Start(tb testing.TB, target string) *Server {
	tb.Helper()
	return start(tb, fmt.Sprintf(config, target))
}

// StartNative is Start with native histograms scraped: Prometheus then
// asks for the protobuf exposition, and a histogram with native buckets
// is stored as a native histogram.
func StartNative(tb testing.TB, target string) *Server {
	tb.Helper()
	return start(tb, fmt.Sprintf(config, target), "--enable-feature=native-histograms")
}

// StartReceiver runs Prometheus with its remote-write receiver on
// (--web.enable-remote-write-receiver; 2.42 takes the 1.0 protocol) and
// nothing to scrape: tests push to WriteURL and read back with Query.
func StartReceiver(tb testing.TB) *Server {
	tb.Helper()
	return start(tb, receiverConfig, "--web.enable-remote-write-receiver")
}

// WriteURL is the server's remote-write endpoint, served when it was
// started with StartReceiver.
func (s *Server) WriteURL() string { return s.URL + "/api/v1/write" }

func start(tb testing.TB, conf string, flags ...string) *Server {
	tb.Helper()
	bin := proctest.Need(tb, "prometheus", "VESLOAD_REQUIRE_PROMETHEUS", "apt-get install prometheus")
	dir := tb.TempDir()
	confFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		tb.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(tb))
	logf, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		tb.Fatal(err)
	}
	args := append([]string{"--config.file=" + confFile, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr, "--log.level=warn"}, flags...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	tb.Cleanup(func() { logf.Close() })
	proctest.Start(tb, cmd, 10*time.Second)
	s := &Server{URL: "http://" + addr}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "prometheus.log"))
			tb.Fatalf("prometheus did not get ready on %s: %v\n%s", s.URL, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Sample is one series of an instant query's result.
type Sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// Query evaluates expr at the current time through /api/v1/query and
// returns its samples (a scalar result is one sample without labels).
func (s *Server) Query(expr string) ([]Sample, error) {
	resp, err := http.PostForm(s.URL+"/api/v1/query", url.Values{"query": {expr}})
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", expr, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string          `json:"resultType"`
			Result     json.RawMessage `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Status != "success" {
		return nil, fmt.Errorf("query %q: HTTP %d: %s", expr, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	switch out.Data.ResultType {
	case "vector":
		var v []Sample
		err = json.Unmarshal(out.Data.Result, &v)
		return v, err
	case "scalar":
		var v [2]any
		err = json.Unmarshal(out.Data.Result, &v)
		return []Sample{{Value: v}}, err
	}
	return nil, fmt.Errorf("query %q: result type %q", expr, out.Data.ResultType)
}

// CheckMetrics runs `promtool check metrics` (Debian's prometheus package)
// on exposition, a scrape in the Prometheus text format, and returns what
// it found wrong, empty when nothing. The test skips when promtool is not
// installed, unless VESLOAD_REQUIRE_PROMETHEUS=1.
func CheckMetrics(tb testing.TB, exposition []byte) string {
	tb.Helper()
	bin := proctest.Need(tb, "promtool", "VESLOAD_REQUIRE_PROMETHEUS", "apt-get install prometheus")
	cmd := exec.Command(bin, "check", "metrics")
	cmd.Stdin = strings.NewReader(string(exposition))
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	if _, ok := err.(*exec.ExitError); !ok {
		tb.Fatalf("promtool check metrics: %v", err)
	}
	if len(out) == 0 {
		return err.Error()
	}
	return strings.TrimSpace(string(out))
}
