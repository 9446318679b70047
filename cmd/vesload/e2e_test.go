package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/nginxtest"
	"github.com/vesload/vesload/report"
)

// binary is the vesload executable built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
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
}

// vesload runs the binary with a hard time limit.
func vesload(t *testing.T, limit time.Duration, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
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

func readResult(t *testing.T, path string) *report.Result {
	t.Helper()
	res, err := report.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.AccountingError(); err != nil {
		t.Fatalf("result accounting: %v", err)
	}
	return res
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
	var res report.Result
	if err := json.Unmarshal([]byte(o.stdout), &res); err != nil {
		t.Fatalf("stdout is not the result document: %v\n%s", err, o.stdout)
	}
	if res.Schema != report.Schema || res.Requests.Sent != 20 {
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
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "50", "-duration", "1m", "-o", out)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the run is under way, then press Ctrl-C once.
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "emulator") {
			break
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go func() {
		for sc.Scan() {
		}
	}()
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
		return u, stop
	case <-time.After(10 * time.Second):
		stop()
		t.Fatal("vesload serve did not announce its address")
	}
	return "", nil
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
