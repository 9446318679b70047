package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/testserver"
)

// runQuick runs a short in-process load against the built-in emulator and
// returns the exit code, stderr and the result written with -o.
func runQuick(t *testing.T, extra ...string) (int, string, *result.Result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"-rps", "20", "-duration", "300ms", "--quiet", "-o", out}, extra...)
	code, _, stderr := cliRun(runRun, args...)
	r, err := resultfile.Read(out)
	if err != nil {
		t.Fatalf("exit %d, stderr %q: %v", code, stderr, err)
	}
	return code, stderr, r
}

// eventIds must stay unique across every run a site will ever make: the
// run id that prefixes them has 64 bits.
func TestRunIDHas64Bits(t *testing.T) {
	t.Parallel()
	_, _, a := runQuick(t)
	_, _, b := runQuick(t)
	hex16 := regexp.MustCompile(`^[0-9a-f]{16}$`)
	if !hex16.MatchString(a.Config.RunID) || !hex16.MatchString(b.Config.RunID) || a.Config.RunID == b.Config.RunID {
		t.Errorf("run ids %q and %q: want two different 16-digit hex ids", a.Config.RunID, b.Config.RunID)
	}
}

// The result records the auth mode, none included, so that an A/B
// comparison can refuse runs that differ in it.
func TestResultRecordsAuthMode(t *testing.T) {
	t.Parallel()
	_, _, r := runQuick(t)
	if r.Config.Auth != "none" {
		t.Errorf("config.auth = %q, want none", r.Config.Auth)
	}
}

// A misspelt single-dash long flag is named, with the flag meant; pflag
// alone says "unknown shorthand flag: 'r' in -rpss".
func TestMisspeltFlagNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-rpss", "100"}, "vesload run: unknown flag: --rpss (did you mean --rps?)\n"},
		{[]string{"--durtion", "1s"}, "vesload run: unknown flag: --durtion (did you mean --duration?)\n"},
		{[]string{"-rsp", "100"}, "vesload run: unknown flag: --rsp (did you mean --rps?)\n"},
		{[]string{"--druation", "1s"}, "vesload run: unknown flag: --druation (did you mean --duration?)\n"},
		{[]string{"-xyzzy"}, "vesload run: unknown flag: --xyzzy\n"},
	}
	for _, tc := range tests {
		code, _, stderr := cliRun(runRun, tc.args...)
		if code != exitUsage || stderr != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	code, _, stderr := cliRun(runServe, "-listn", "x")
	if code != exitUsage || !strings.Contains(stderr, "did you mean --listen?") {
		t.Errorf("serve -listn: exit %d, stderr %q", code, stderr)
	}
}

// startEmulator starts an in-process emulator for one test.
func startTestEmulator(t *testing.T, opts testserver.Options) string {
	t.Helper()
	srv, err := testserver.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv.URL() + "/eventListener/v7"
}

// ONAP's plans assert 202: --expect-status 202 makes a collector that
// answers 200 (the legacy compatibility setting) fail, each 200 an error
// of its own class.
func TestExpectStatus(t *testing.T) {
	t.Parallel()
	legacy := startTestEmulator(t, testserver.Options{Compat: testserver.CompatLegacy})
	tests := []struct {
		args    []string
		code    int
		ok, err int64
		class   string
	}{
		{nil, exitOK, 10, 0, ""},
		{[]string{"--expect-status", "2xx"}, exitOK, 10, 0, ""},
		{[]string{"--expect-status", "202", "--allow-errors"}, exitOK, 0, 10, "http_200"},
		{[]string{"--expect-status", "202", "--expect-status", "200"}, exitOK, 10, 0, ""},
		{[]string{"--expect-status", "202"}, exitThreshold, 0, 10, "http_200"},
	}
	for _, tc := range tests {
		out := filepath.Join(t.TempDir(), "r.json")
		args := append([]string{"--url", legacy, "-rps", "20", "-duration", "500ms", "-q", "-o", out}, tc.args...)
		code, _, stderr := cliRun(runRun, args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d; stderr %s", tc.args, code, tc.code, stderr)
			continue
		}
		res, err := resultfile.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if res.Requests.OK != tc.ok || res.Requests.Errors != tc.err || (tc.class != "" && res.Errors[tc.class] != tc.err) {
			t.Errorf("%q: ok %d errors %v, want ok %d and %d %s", tc.args, res.Requests.OK, res.Errors, tc.ok, tc.err, tc.class)
		}
	}
	code, _, stderr := cliRun(runRun, "--url", legacy, "--expect-status", "20x")
	if code != exitUsage || !strings.Contains(stderr, "--expect-status") {
		t.Errorf("--expect-status 20x: exit %d, stderr %q", code, stderr)
	}
}

// A run in which no request succeeded fails (exit 3, the ok>0 gate) even
// without thresholds, unless --allow-errors.
func TestNoSuccessFails(t *testing.T) {
	t.Parallel()
	refusing := startTestEmulator(t, testserver.Options{ErrorRate: 1})
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, _ := cliRun(runRun, "--url", refusing, "-rps", "20", "-duration", "500ms", "-q", "-o", out)
	if code != exitThreshold {
		t.Fatalf("exit %d, want %d", code, exitThreshold)
	}
	res, err := resultfile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Thresholds) != 1 || res.Thresholds[0].Expr != "ok>0" || res.Thresholds[0].Pass {
		t.Errorf("thresholds %+v, want the failed ok>0 gate", res.Thresholds)
	}
	if !strings.Contains(stdout, "ok>0") || !strings.Contains(stdout, "no request succeeded") {
		t.Errorf("summary does not say why the run failed:\n%s", stdout)
	}
	if code, _, _ := cliRun(runRun, "--url", refusing, "-rps", "20", "-duration", "500ms", "-q", "--allow-errors"); code != exitOK {
		t.Errorf("--allow-errors: exit %d, want 0", code)
	}
	// A run with some success is unaffected.
	if code, _, _ := cliRun(runRun, "-rps", "20", "-duration", "500ms", "-q"); code != exitOK {
		t.Errorf("a good run: exit %d, want 0", code)
	}
}

// JTL rows carry the requests in flight as grpThreads and allThreads, so
// that JMeter's dashboard generator draws its active-threads chart.
func TestJTLThreadsAreInFlight(t *testing.T) {
	t.Parallel()
	slow := startTestEmulator(t, testserver.Options{Latency: 200 * time.Millisecond})
	jtl := filepath.Join(t.TempDir(), "r.jtl")
	code, _, stderr := cliRun(runRun, "--url", slow, "-rps", "20", "-duration", "1s", "-q", "--jtl", jtl)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := readJTL(t, jtl)
	if len(rows) != 21 || rows[0][11] != "grpThreads" || rows[0][12] != "allThreads" {
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	most := 0
	for _, r := range rows[1:] {
		n, err := strconv.Atoi(r[11])
		if err != nil || n < 1 || r[12] != r[11] {
			t.Fatalf("row %q: grpThreads %q allThreads %q, want the same count, at least 1", r, r[11], r[12])
		}
		most = max(most, n)
	}
	// 20/s answered after 200 ms: about four at once.
	if most < 2 || most > 20 {
		t.Errorf("at most %d in flight, want about 4", most)
	}
}

// --data-file binds each row's columns as template variables, one row per
// request in turn: one sourceName per simulated PNF.
func TestDataFileRoundRobin(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]int{}
	// The answer takes 60 ms, longer than the 33 ms between requests at
	// 30/s, so two connections are busy at once: the pool hands out the
	// connection freed last, and at a rate one connection could carry
	// alone, it alone would send.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(60 * time.Millisecond)
		var body struct {
			Event struct {
				Header struct {
					SourceName string `json:"sourceName"`
					EventID    string `json:"eventId"`
				} `json:"commonEventHeader"`
			} `json:"event"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		// The preflight's request is marked by its eventId: it is none of
		// the run's.
		if !strings.HasSuffix(body.Event.Header.EventID, "-"+strconv.Itoa(transport.PreflightSeq)) {
			mu.Lock()
			seen[body.Event.Header.SourceName]++
			mu.Unlock()
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	dir := t.TempDir()
	data, tpl := filepath.Join(dir, "pnfs.csv"), filepath.Join(dir, "body.json")
	if err := os.WriteFile(data, []byte("sourceName,ip\npnf-1,10.0.0.1\npnf-2,10.0.0.2\npnf-3,10.0.0.3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tpl, []byte(`{"event":{"commonEventHeader":{"sourceName":"${sourceName}","eventId":"{{.EventID}}","ip":"${ip}"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	code, _, stderr := cliRun(runRun, "--url", srv.URL+"/eventListener/v7", "--body-file", tpl, "--data-file", data,
		"--pool-wait", "5s", "-rps", "30", "-duration", "1s", "-q", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 || seen["pnf-1"] != 10 || seen["pnf-2"] != 10 || seen["pnf-3"] != 10 {
		t.Errorf("sourceNames seen %v, want each of the 3 rows 10 times", seen)
	}
	// Per worker, a pool of 2 uses rows 1 and 2 only, one per connection.
	for k := range seen {
		delete(seen, k)
	}
	mu.Unlock()
	out2 := filepath.Join(dir, "r2.json")
	code, _, stderr = cliRun(runRun, "--url", srv.URL+"/eventListener/v7", "--body-file", tpl, "--data-file", data,
		"--data-per", "worker", "--pool", "2", "--pool-wait", "5s", "-rps", "30", "-duration", "1s", "-q", "-o", out2)
	mu.Lock()
	res2, err := resultfile.Read(out2)
	if err != nil {
		t.Fatalf("exit %d (%s): %v", code, stderr, err)
	}
	if code != exitOK || len(seen) != 2 || seen["pnf-1"] == 0 || seen["pnf-2"] == 0 || int64(seen["pnf-1"]+seen["pnf-2"]) != res2.Requests.OK {
		t.Errorf("per worker, pool 2: exit %d, sourceNames seen %v, want pnf-1 and pnf-2 only, %d in all (%s)", code, seen, res2.Requests.OK, stderr)
	}
	// A row count or header the file does not keep is refused in one line.
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("sourceName\na\nb,c\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cliRun(runRun, "--url", srv.URL+"/eventListener/v7", "--body-file", tpl, "--data-file", bad, "-q")
	if code != exitUsage || !strings.Contains(stderr, "bad.csv:3: wrong number of columns") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("bad data file: exit %d, stderr %q", code, stderr)
	}
	// Built-in events have no ${NAME} to bind.
	code, _, stderr = cliRun(runRun, "--url", srv.URL+"/eventListener/v7", "--data-file", data, "-q")
	if code != exitUsage || !strings.Contains(stderr, "give a body or --body-file") {
		t.Errorf("data file with a built-in event: exit %d, stderr %q", code, stderr)
	}
}

// An output that names a folder is refused before the run, in one line.
func TestOutputFolderRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, flag := range []string{"-o", "--html", "--junit", "--jtl", "--csv"} {
		code, _, stderr := cliRun(runRun, "-rps", "1", "-duration", "1s", "-q", flag, dir)
		if code != exitUsage || !strings.Contains(stderr, flag+" "+dir+": is a folder") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s DIR: exit %d, stderr %q", flag, code, stderr)
		}
	}
}
