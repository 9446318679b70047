package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/nginxtest"
	"github.com/vesload/vesload/internal/shareddata"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/threshold"
)

// binary is the vesload executable built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	// A run in this test process starts its built-in emulator as a child
	// of os.Executable(), that is of this test binary: act as vesload.
	if len(os.Args) > 1 && (os.Args[1] == "serve" || os.Args[1] == "consume") {
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "vesload-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "vesload")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build vesload:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type outcome struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	maxRSS         int64 // the process's peak resident memory, in bytes
}

// vesload runs the binary with a hard time limit.
func vesload(t *testing.T, limit time.Duration, args ...string) outcome {
	t.Helper()
	return vesloadEnv(t, limit, nil, args...)
}

// vesloadEnv is vesload with env (NAME=VALUE entries) laid over this
// process's environment; an entry "NAME" alone removes NAME.
func vesloadEnv(t *testing.T, limit time.Duration, env []string, args ...string) outcome {
	t.Helper()
	return vesloadUnder(t, limit, env, nil, args...)
}

// vesloadUnder is vesloadEnv with the binary started by a wrapper that
// execs it (wrap, the wrapper and its arguments: "taskset", "-c", "0"),
// so that the outcome is still the binary's own.
func vesloadUnder(t *testing.T, limit time.Duration, env, wrap []string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	argv := append(append(slices.Clone(wrap), binary), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = overlayEnv(os.Environ(), env)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			o.maxRSS = int64(ru.Maxrss) << 10 // kilobytes on Linux
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("vesload %v did not finish within %v\nstderr: %s", args, limit, o.stderr)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run vesload: %v", err)
	}
	return o
}

func readResult(t *testing.T, path string) *result.Result {
	t.Helper()
	res, err := resultfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.AccountingError(); err != nil {
		t.Fatalf("result accounting: %v", err)
	}
	return res
}

// readJTL reads a JTL file's rows, its header first.
func readJTL(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestRunAgainstBuiltinEmulator(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-rps", "50", "-duration", "2s", "-o", out)
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	if !strings.Contains(o.stderr, "built-in VES collector emulator") {
		t.Errorf("no announcement of the emulator on stderr: %s", o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Scheduled != 100 || res.Requests.Sent != 100 || res.Requests.OK != 100 {
		t.Fatalf("requests %+v errors %v, want 100 sent and ok", res.Requests, res.Errors)
	}
	if !res.Config.Emulator || res.Latency.Count != 100 {
		t.Fatalf("emulator %v latency count %d", res.Config.Emulator, res.Latency.Count)
	}
	for _, want := range []string{"p99", "Error rate"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, o.stdout)
		}
	}
}

func TestResultOnStdout(t *testing.T) {
	t.Parallel()
	o := vesload(t, 30*time.Second, "--rps=20", "--duration=1s", "-o", "-", "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	var res result.Result
	if err := json.Unmarshal([]byte(o.stdout), &res); err != nil {
		t.Fatalf("stdout is not the result document: %v\n%s", err, o.stdout)
	}
	if res.Schema != result.Schema || res.Requests.Sent != 20 {
		t.Fatalf("schema %q sent %d", res.Schema, res.Requests.Sent)
	}
}

func TestBadFlagsExitTwo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"-rps", "0"}, "--rps"},
		{[]string{"-rps", "abc"}, "rps"},
		{[]string{"-rps", "-5"}, "--rps"},
		{[]string{"-rps", "2e7"}, "--rps"},
		{[]string{"-rps", "NaN"}, "--rps"},
		{[]string{"-duration", "10 minutes"}, "duration"},
		{[]string{"-duration", "0s"}, "--duration"},
		{[]string{"-pool", "0"}, "--pool"},
		{[]string{"-pool-wait", "-1s"}, "--pool-wait"},
		{[]string{"-timeout", "0s"}, "--timeout"},
		{[]string{"-url", "ftp://host/x"}, "--url"},
		{[]string{"-url", "http://"}, "--url"},
		{[]string{"-url", "::nonsense"}, "--url"},
		{[]string{"-event", "nosuch"}, "--event"},
		{[]string{"-event-size", "-1"}, "--event-size"},
		{[]string{"-batch", "-2"}, "--batch"},
		{[]string{"-H", "no colon"}, "--header"},
		{[]string{"-password-file", filepath.Join(dir, "missing")}, "--password-file"},
		{[]string{"-body-file", filepath.Join(dir, "missing")}, "--body-file"},
		{[]string{"-cert", "c.pem"}, "--cert"},
		{[]string{"-threshold", "p99<5xs"}, "--threshold"},
		{[]string{"--influx-url", "influx:8086/write?db=jmeter"}, "--influx-url"},
		{[]string{"--influx-url", "http://influx:8086/write"}, "--influx-url"},
		{[]string{"--influx-url", "http://influx:8086/write?db=j", "--influx-percentiles", "120"}, "--influx-url"},
		{[]string{"--remote-write-url", "prom:9090/api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", "http://vl:pw@prom:9090/api/v1/write"}, "--remote-write-url"},
		{[]string{"--remote-write-url", "http://prom:9090/api/v1/write", "--remote-write-bearer-file", filepath.Join(dir, "missing")}, "--remote-write-bearer-file"},
		{[]string{"--remote-write-user", "vl"}, "--remote-write-user"},
		{[]string{"-nosuchflag"}, "nosuchflag"},
		{[]string{"frobnicate"}, "frobnicate"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			o := vesload(t, 20*time.Second, tt.args...)
			if o.code != exitUsage {
				t.Fatalf("exit %d, want %d\nstderr: %s", o.code, exitUsage, o.stderr)
			}
			lines := strings.Split(strings.TrimSpace(o.stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.flag) {
				t.Fatalf("want one line naming %s, got:\n%s", tt.flag, o.stderr)
			}
			if strings.Contains(o.stderr, "goroutine") || strings.Contains(o.stderr, "panic") {
				t.Fatalf("stack trace on bad input:\n%s", o.stderr)
			}
		})
	}
}

func TestUnreachableTargetExitsOneQuickly(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/eventListener/v7"
	l.Close()
	o := vesload(t, 20*time.Second, "-url", url, "-rps", "10", "-duration", "1m")
	if o.code != exitRun {
		t.Fatalf("exit %d, want %d\nstderr: %s", o.code, exitRun, o.stderr)
	}
	if o.elapsed > 10*time.Second || !strings.Contains(o.stderr, "preflight") {
		t.Fatalf("took %v, stderr: %s", o.elapsed, o.stderr)
	}
}

func TestInterruptWritesResult(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, jtl := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.jtl")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "50", "-duration", "1m", "-o", out, "--jtl", jtl)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	// Wait until the run is under way (its JTL, flushed every 200 ms,
	// holds 25 requests: a loaded machine may take seconds to set up),
	// then press Ctrl-C once.
	if !waitfor.Ctx(ctx, 50*time.Millisecond, func() bool {
		b, _ := os.ReadFile(jtl)
		return bytes.Count(b, []byte("\n")) > 25
	}) {
		t.Fatal("the run sent no 25 requests in 30 s")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d", err, exitInterrupted)
	}
	res := readResult(t, out)
	if !res.Interrupted || res.Requests.Sent < 25 || res.Requests.NotSent < 2000 {
		t.Fatalf("interrupted %v requests %+v", res.Interrupted, res.Requests)
	}
}

func TestServeAndRunAgainstIt(t *testing.T) {
	t.Parallel()
	url, stop := startServe(t)
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "100", "-duration", "2s", "-batch", "3", "-event", "measurement", "-o", out)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.OK != 200 || !strings.HasSuffix(res.Config.URL, "/eventListener/v7/eventBatch") {
		t.Fatalf("ok %d url %s errors %v", res.Requests.OK, res.Config.URL, res.Errors)
	}
}

var listenLine = regexp.MustCompile(`https?://127\.0\.0\.1:\d+`)

// startServe runs `vesload serve` on a free port and returns its base URL.
func startServe(t *testing.T, extra ...string) (string, func()) {
	t.Helper()
	url, _, stop := startServeProc(t, extra...)
	return url, stop
}

// startServeProc is startServe that also returns the emulator's pid.
func startServeProc(t *testing.T, extra ...string) (string, int, func()) {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listenLine.FindString(sc.Text()); m != "" {
				select {
				case found <- m:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return u, cmd.Process.Pid, stop
	case <-time.After(10 * time.Second):
		stop()
		t.Fatal("vesload serve did not announce its address")
	}
	return "", 0, nil
}

func TestRunAgainstNginx(t *testing.T) {
	t.Parallel()
	base := nginxtest.Start(t)
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-url", base+"/eventListener/v7", "-rps", "500", "-duration", "2s", "-pool", "1000", "-o", out, "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Scheduled != 1000 || res.Requests.Sent != 1000 || res.Errors["http_202"] != 0 || res.Requests.OK != 1000 {
		t.Fatalf("requests %+v errors %v, want exactly 1000 sent and ok", res.Requests, res.Errors)
	}
}

func TestThresholdGates(t *testing.T) {
	t.Parallel()
	url, stop := startServe(t, "--latency", "10ms")
	defer stop()
	dir := t.TempDir()
	tests := []struct {
		gate string
		code int
	}{
		{"p99<1ms", exitThreshold},
		{"p99<5s", exitOK},
	}
	for _, tt := range tests {
		junit := filepath.Join(dir, "gates-"+tt.gate+".xml")
		o := vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "20", "-duration", "1s",
			"--threshold", tt.gate, "--threshold", "error_rate<1%", "--junit", junit, "-q")
		if o.code != tt.code {
			t.Fatalf("%s: exit %d, want %d\n%s", tt.gate, o.code, tt.code, o.stderr)
		}
		xml, err := os.ReadFile(junit)
		if err != nil {
			t.Fatal(err)
		}
		failed := strings.Contains(string(xml), "<failure")
		if failed != (tt.code == exitThreshold) || !strings.Contains(string(xml), strings.ReplaceAll(tt.gate, "<", "&lt;")) {
			t.Fatalf("%s: JUnit failure=%v:\n%s", tt.gate, failed, xml)
		}
		if !strings.Contains(o.stdout, tt.gate) {
			t.Fatalf("%s: summary does not show the gate:\n%s", tt.gate, o.stdout)
		}
	}
}

func TestTargetSamplingAndLiveMetrics(t *testing.T) {
	t.Parallel()
	url, pid, stop := startServeProc(t)
	defer stop()
	dir := t.TempDir()

	// The emulator's own /metrics: the CPU and RSS of the target, remotely.
	out := filepath.Join(dir, "metrics.json")
	o := vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "200", "-duration", "3s",
		"--target-metrics", url+"/metrics", "-o", out, "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Target == nil || res.Target.RSSMaxBytes == 0 || res.Target.CPUMaxPct <= 0 ||
		!strings.HasPrefix(res.Target.Source, "metrics:") || len(res.Target.Series) == 0 {
		t.Fatalf("target %+v: want CPU, RSS and the series used", res.Target)
	}

	// A dead metrics endpoint: the run completes and counts the failures.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String() + "/metrics"
	l.Close()
	out = filepath.Join(dir, "dead.json")
	o = vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "20", "-duration", "2s",
		"--target-metrics", dead, "-o", out, "-q")
	if o.code != exitOK {
		t.Fatalf("dead endpoint: exit %d: %s", o.code, o.stderr)
	}
	if res = readResult(t, out); res.Target == nil || res.Target.SampleErrors == 0 {
		t.Fatalf("dead endpoint: target %+v, want sample errors counted", res.Target)
	}

	// The emulator's process, locally.
	out = filepath.Join(dir, "pid.json")
	o = vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "200", "-duration", "3s",
		"--target-pid", strconv.Itoa(pid), "-o", out)
	if o.code != exitOK {
		t.Fatalf("--target-pid: exit %d: %s", o.code, o.stderr)
	}
	if res = readResult(t, out); res.Target == nil || res.Target.RSSMaxBytes == 0 || res.Target.Source != "pid:"+strconv.Itoa(pid) {
		t.Fatalf("--target-pid: target %+v", res.Target)
	}
	if strings.Contains(o.stdout, "|       n/a |") {
		t.Fatalf("summary shows no target CPU:\n%s", o.stdout)
	}
}

func TestLiveMetricsEndpoint(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "50", "-duration", "3s", "--metrics-addr", addr, "-q")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	// Scraped every 100 ms until three different counts were seen.
	counts := []float64{}
	waitfor.True(4*time.Second, 100*time.Millisecond, func() bool {
		if n, ok := scrapeCounter(addr, `vesload_requests_total{code="202",outcome="ok"}`); ok {
			if len(counts) == 0 || n != counts[len(counts)-1] {
				counts = append(counts, n)
			}
		}
		return len(counts) >= 3
	})
	if len(counts) < 2 || counts[len(counts)-1] <= counts[0] {
		t.Fatalf("request counter seen as %v: want it to increase during the run", counts)
	}
}

// scrapeCounter reads one sample's value from a Prometheus text endpoint.
func scrapeCounter(addr, series string) (float64, bool) {
	c := &http.Client{Timeout: time.Second}
	resp, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, series+" ") {
			var v float64
			if _, err := fmt.Sscan(strings.TrimPrefix(line, series+" "), &v); err == nil {
				return v, true
			}
		}
	}
	return 0, false
}

func TestStreamOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jtl, hlog, md, csvPath := filepath.Join(dir, "r.jtl"), filepath.Join(dir, "r.hlog"), filepath.Join(dir, "r.md"), filepath.Join(dir, "r.csv")
	o := vesload(t, 30*time.Second, "-rps", "40", "-duration", "2s", "-q",
		"--jtl", jtl, "--hdr-log", hlog, "--markdown", md, "--csv", csvPath)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	rows, _ := os.ReadFile(jtl)
	if n := strings.Count(string(rows), "\n"); n != 81 {
		t.Fatalf("JTL has %d lines, want a header and 80 rows", n)
	}
	logText, _ := os.ReadFile(hlog)
	if strings.Count(string(logText), "Tag=latency,") < 2 {
		t.Fatalf("HdrHistogram log has too few intervals:\n%s", logText)
	}
	mdText, _ := os.ReadFile(md)
	if !strings.Contains(string(mdText), "| Avg |") && !strings.Contains(string(mdText), "Avg") {
		t.Fatalf("Markdown lacks the seed table:\n%s", mdText)
	}
	csvText, _ := os.ReadFile(csvPath)
	if !strings.HasPrefix(string(csvText), "t,") {
		t.Fatalf("CSV timeline:\n%s", csvText)
	}
}

func TestBuiltinProfilesRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, info := range profiles.Builtins() {
		out := filepath.Join(dir, info.Name+".json")
		args := []string{"-profile", info.Name, "-duration", "2s", "-o", out, "-q", "--pool", "1000"}
		if strings.HasPrefix(info.Name, "hv-") && info.Name != "hv-producers-8k" {
			args = args[:len(args)-2] // HV-VES producers: one connection each, no pool to size
		}
		o := vesload(t, 60*time.Second, args...)
		if o.code != exitOK && o.code != exitThreshold {
			t.Fatalf("%s: exit %d: %s", info.Name, o.code, o.stderr)
		}
		res := readResult(t, out)
		if hv := len(args) == 7; hv != (res.Config.Protocol == "hv-ves") {
			t.Fatalf("%s: protocol %q", info.Name, res.Config.Protocol)
		}
		if res.Config.Profile != info.Name || res.Requests.Sent == 0 || res.Requests.OK != res.Requests.Sent {
			t.Fatalf("%s: profile %q requests %+v errors %v", info.Name, res.Config.Profile, res.Requests, res.Errors)
		}
	}
}

func TestProfileWithDurationOverride(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 60*time.Second, "-profile", "ves-100rps-10m", "-duration", "10s", "-o", out, "-q")
	// The profile's p99<500ms gate may fail on a loaded machine (exit 3);
	// what this test checks is that the gates came with the profile.
	if o.code == exitThreshold {
		t.Logf("exit 3: gates %+v", readResult(t, out).Thresholds)
	}
	if o.code != exitOK && o.code != exitThreshold {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	var exprs []string
	for _, th := range res.Thresholds {
		exprs = append(exprs, th.Expr)
	}
	if res.Requests.Scheduled != 1000 || res.Requests.Sent != 1000 || !slices.Equal(exprs, []string{"error_rate<1%", "p99<500ms"}) {
		t.Fatalf("requests %+v thresholds %v, want 1000 and the profile's gates", res.Requests, res.Thresholds)
	}
	if passed := threshold.Passed(res.Thresholds); passed != (o.code == exitOK) {
		t.Fatalf("exit %d with gates passed=%v", o.code, passed)
	}
}

func TestProfileTypoFailsWithPosition(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(path, []byte("name: typo\nload:\n  rps: 10\n  duraton: 5s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := vesload(t, 20*time.Second, "-profile", path)
	if o.code != exitUsage || !strings.Contains(o.stderr, path+":4:") || strings.Count(strings.TrimSpace(o.stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q: want one line with %s:4:column", o.code, o.stderr, path)
	}
}

func TestImportedPlansRun(t *testing.T) {
	t.Parallel()
	plans, err := filepath.Glob(filepath.Join(shareddata.Dir(t, "jmeter"), "*.jmx"))
	if err != nil || len(plans) == 0 {
		t.Fatalf("no JMeter plans: %v", err)
	}
	url, stop := startServe(t)
	defer stop()
	dir := t.TempDir()
	for _, plan := range plans {
		name := strings.TrimSuffix(filepath.Base(plan), ".jmx")
		profile := filepath.Join(dir, name+".yaml")
		if o := vesload(t, 30*time.Second, "import-jmx", plan, "-o", profile); o.code != exitOK {
			t.Fatalf("import %s: exit %d: %s", name, o.code, o.stderr)
		}
		out := filepath.Join(dir, name+".json")
		// The plans use basic auth; the emulator ignores it, but the
		// password must be there (vesload refuses to send an empty one).
		o := vesloadEnv(t, 60*time.Second, []string{"VESLOAD_PASSWORD=sample1"},
			"-profile", profile, "-url", url+"/eventListener/v7", "-duration", "1s", "--pool", "1000", "-o", out, "-q")
		if strings.Contains(name, "stndDefined") {
			// ONAP's stndDefined plans hold a body that is not JSON (a brace
			// short): vesload refuses to send it and says where.
			if o.code != exitUsage || !strings.Contains(o.stderr, "not valid JSON") {
				t.Fatalf("%s: exit %d, stderr %q: want exit 2 naming the broken body", name, o.code, o.stderr)
			}
			continue
		}
		if o.code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, o.code, o.stderr)
		}
		res := readResult(t, out)
		if res.Requests.Sent == 0 || res.Requests.OK != res.Requests.Sent {
			t.Fatalf("%s: requests %+v errors %v", name, res.Requests, res.Errors)
		}
	}
}
