// Package influxtest starts a private InfluxDB 1.x (Debian's influxdb
// package) on 127.0.0.1 for tests that write to a real server and read
// back with InfluxQL. It has its own data directory and free ports, and
// stops with the test. Tests skip when influxd is not installed, unless
// VESLOAD_REQUIRE_INFLUXDB=1 (as CI sets it) makes that a failure.
package influxtest

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

const config = `reporting-disabled = true
bind-address = "127.0.0.1:%[2]d"
[meta]
  dir = "%[1]s/meta"
[data]
  dir = "%[1]s/data"
  wal-dir = "%[1]s/wal"
  query-log-enabled = false
[http]
  bind-address = "127.0.0.1:%[3]d"
  log-enabled = false
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
`

// Server is a running influxd.
type Server struct {
	// URL is the HTTP API's base, http://127.0.0.1:PORT.
	URL string
}

// Start runs influxd and creates database db in it.
func Start(tb testing.TB, db string) *Server {
	tb.Helper()
	bin := proctest.Need(tb, "influxd", "VESLOAD_REQUIRE_INFLUXDB", "apt-get install influxdb")
	dir := tb.TempDir()
	rpc, httpPort := proctest.FreePort(tb), proctest.FreePort(tb)
	conf := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, config, dir, rpc, httpPort), 0o644); err != nil {
		tb.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "influxd.log"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { logf.Close() })
	cmd := exec.Command(bin, "-config", conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	proctest.Start(tb, cmd, 10*time.Second)
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", httpPort)}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusNoContent {
				break
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "influxd.log"))
			tb.Fatalf("influxd did not answer on %s: %v\n%s", s.URL, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := s.Query("", "CREATE DATABASE "+db); err != nil {
		tb.Fatal(err)
	}
	return s
}

// Result is one statement's answer of InfluxDB's /query.
type Result struct {
	Series []Series `json:"series"`
	Error  string   `json:"error"`
}

// Series is one series of a query result.
type Series struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Query runs InfluxQL q against database db ("" for none).
func (s *Server) Query(db, q string) ([]Result, error) {
	form := url.Values{"q": {q}}
	if db != "" {
		form.Set("db", db)
	}
	resp, err := http.PostForm(s.URL+"/query", form)
	if err != nil {
		return nil, fmt.Errorf("influx query %q: %w", q, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out struct {
		Results []Result `json:"results"`
		Error   string   `json:"error"`
	}
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != http.StatusOK || out.Error != "" {
		return nil, fmt.Errorf("influx query %q: HTTP %d: %s", q, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	for _, r := range out.Results {
		if r.Error != "" {
			return nil, fmt.Errorf("influx query %q: %s", q, r.Error)
		}
	}
	return out.Results, nil
}
