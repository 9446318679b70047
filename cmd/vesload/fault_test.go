package main

// The fault suite: the built binary against targets that fail mid-run, on
// loopback only, each case bounded to a few seconds. Every case checks
// that every request is accounted for, that nothing hangs past the
// timeout, that memory stays bounded and that the summary says what
// happened.

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/testserver"
)

// faultRSSLimit bounds the generator's memory in every fault case: a
// short run at a few dozen requests per second needs far less, whatever
// the target does.
const faultRSSLimit = 256 << 20

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// emulatorProc is a `vesload serve` child process.
type emulatorProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// startServeOnPort starts `vesload serve` on 127.0.0.1:port and waits until it
// accepts connections; the test's cleanup kills it by pid.
func startServeOnPort(t *testing.T, port int, extra ...string) *emulatorProc {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:" + strconv.Itoa(port), "--quiet"}, extra...)
	cmd := exec.Command(binary, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &emulatorProc{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.kill)
	var err error
	if !waitfor.True(10*time.Second, 20*time.Millisecond, func() bool {
		var c net.Conn
		if c, err = net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("vesload serve on port %d does not accept connections: %v", port, err)
	}
	return p
}

// kill ends the process (resuming it first if it was stopped) and waits.
func (p *emulatorProc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	_ = p.cmd.Process.Kill()
	<-p.done
}

func (p *emulatorProc) signal(t *testing.T, sig syscall.Signal) {
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Errorf("signal %v to pid %d: %v", sig, p.cmd.Process.Pid, err)
	}
}

// checkFaultRun asserts what every fault case must hold: the result was
// written; scheduled = sent + pool_exhausted + not_sent; sent = ok +
// errors by class; the run ended within limit; memory stayed bounded;
// and the summary names each error class the result counts.
func checkFaultRun(t *testing.T, o outcome, out string, limit time.Duration) *result.Result {
	t.Helper()
	res := readResult(t, out) // checks the scheduled accounting
	var byClass int64
	for class, n := range res.Errors {
		if class != "pool_exhausted" {
			byClass += n
		}
		if n > 0 && !strings.Contains(o.stdout, class) {
			t.Errorf("summary does not name error class %s (%d):\n%s", class, n, o.stdout)
		}
	}
	if res.Requests.Sent != res.Requests.OK+byClass {
		t.Errorf("sent %d != ok %d + errors by class %d (%v)", res.Requests.Sent, res.Requests.OK, byClass, res.Errors)
	}
	if res.Requests.Scheduled == 0 {
		t.Errorf("nothing scheduled: %+v", res.Requests)
	}
	if o.elapsed > limit {
		t.Errorf("the run took %v, more than %v (duration + timeout + start-up)", o.elapsed, limit)
	}
	if rss := res.Generator.RSSMaxBytes; rss > faultRSSLimit {
		t.Errorf("generator RSS reached %d bytes, over %d", rss, faultRSSLimit)
	}
	return res
}

// faultArgs is a short run against url with a result file.
func faultArgs(t *testing.T, url string, extra ...string) (string, []string) {
	out := filepath.Join(t.TempDir(), "r.json")
	args := []string{"--url", url}
	// A flag given twice is refused: extra's flags replace the defaults.
	for _, d := range [][2]string{{"-rps", "40"}, {"-duration", "2s"}, {"--timeout", "500ms"}, {"--checkpoint", "0"}, {"-o", out}} {
		if !slices.Contains(extra, d[0]) {
			args = append(args, d[0], d[1])
		}
	}
	return out, append(args, extra...)
}

func TestFaultTargetKilledAndRestarted(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	first := startServeOnPort(t, port)
	second := exec.Command(binary, "serve", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--quiet")
	restarted := make(chan error, 1)
	go func() {
		waitAccepted(port, 10) // the run is under way
		first.kill()
		time.Sleep(500 * time.Millisecond) // the target's process stays down for as long
		restarted <- second.Start()
	}()
	out, args := faultArgs(t, fmt.Sprintf("http://127.0.0.1:%d/eventListener/v7", port), "-duration", "3s")
	o := vesload(t, 30*time.Second, args...)
	if err := <-restarted; err != nil {
		t.Fatalf("restart the emulator: %v", err)
	}
	defer func() { _ = second.Process.Kill(); _ = second.Wait() }()
	res := checkFaultRun(t, o, out, 3*time.Second+500*time.Millisecond+10*time.Second)
	down := res.Errors["conn_refused"] + res.Errors["conn_reset"] + res.Errors["other"]
	if down == 0 {
		t.Errorf("no connection errors while the target was down: %v", res.Errors)
	}
	if res.Requests.OK == 0 || len(res.Timeline) == 0 || res.Timeline[len(res.Timeline)-1].OK == 0 {
		t.Errorf("no success after the restart: ok %d, timeline %+v", res.Requests.OK, res.Timeline)
	}
}

func TestFaultTargetFrozenAndResumed(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	srv := startServeOnPort(t, port)
	go func() {
		waitAccepted(port, 10) // the run is under way
		srv.signal(t, syscall.SIGSTOP)
		time.Sleep(1200 * time.Millisecond) // the target's process stays frozen for as long
		srv.signal(t, syscall.SIGCONT)
	}()
	out, args := faultArgs(t, fmt.Sprintf("http://127.0.0.1:%d/eventListener/v7", port), "-duration", "3s")
	o := vesload(t, 30*time.Second, args...)
	res := checkFaultRun(t, o, out, 3*time.Second+500*time.Millisecond+10*time.Second)
	if res.Errors["timeout"] == 0 {
		t.Errorf("no timeouts while the target was frozen: %v", res.Errors)
	}
	if res.Requests.OK == 0 || res.Timeline[len(res.Timeline)-1].OK == 0 {
		t.Errorf("no success after the target resumed: ok %d", res.Requests.OK)
	}
}

// waitAccepted waits, for up to 30 s, until the emulator process
// listening on port has accepted n event requests.
func waitAccepted(port, n int) {
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	c := &http.Client{Timeout: time.Second}
	waitfor.True(30*time.Second, 20*time.Millisecond, func() bool {
		resp, err := c.Get(base + "/stats")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var st testserver.Stats
		return json.NewDecoder(resp.Body).Decode(&st) == nil && st.Accepted >= int64(n)
	})
}

// rawServer accepts loopback connections and hands each to serve; Close
// stops it and closes every connection.
type rawServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func startRaw(t *testing.T, serve func(net.Conn)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns[c] = struct{}{}
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() + "/eventListener/v7" }

func (s *rawServer) close() {
	_ = s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// eachRequest reads requests from c and answers each with answer until
// the connection ends or answer returns false.
func eachRequest(c net.Conn, answer func(net.Conn) bool) {
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		if !answer(c) {
			return
		}
	}
}

func TestFaultSlowLoris(t *testing.T) {
	t.Parallel()
	srv := startRaw(t, func(c net.Conn) {
		eachRequest(c, func(c net.Conn) bool {
			for _, b := range []byte("HTTP/1.1 202 Accepted\r\nContent-Length: 23\r\n\r\nSuccessfully send event") {
				if _, err := c.Write([]byte{b}); err != nil {
					return false
				}
				time.Sleep(50 * time.Millisecond)
			}
			return true
		})
	})
	out, args := faultArgs(t, srv.url(), "-rps", "10", "-duration", "1s", "--no-preflight")
	o := vesload(t, 30*time.Second, args...)
	res := checkFaultRun(t, o, out, time.Second+500*time.Millisecond+10*time.Second)
	if res.Errors["timeout"] != res.Requests.Sent || res.Requests.OK != 0 {
		t.Errorf("a response trickled over 3 s with --timeout 500ms: ok %d, errors %v; want every request a timeout", res.Requests.OK, res.Errors)
	}
	if res.Latency.Max > 2000 {
		t.Errorf("latency max %.0f ms: a request outlived --timeout 500ms by far", res.Latency.Max)
	}
}

func TestFaultOversizedResponses(t *testing.T) {
	t.Parallel()
	const size = 32 << 20
	chunk := make([]byte, 64<<10)
	for _, status := range []int{202, 500} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			srv := startRaw(t, func(c net.Conn) {
				eachRequest(c, func(c net.Conn) bool {
					fmt.Fprintf(c, "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", status, size)
					for n := 0; n < size; n += len(chunk) {
						if _, err := c.Write(chunk); err != nil {
							return false
						}
					}
					return true
				})
			})
			out, args := faultArgs(t, srv.url(), "-rps", "10", "-duration", "1s", "--timeout", "2s", "--no-preflight")
			o := vesload(t, 60*time.Second, args...)
			res := checkFaultRun(t, o, out, time.Second+2*time.Second+20*time.Second)
			if res.Errors["response_too_large"] != res.Requests.Sent || res.Requests.Sent == 0 {
				t.Errorf("32 MiB answers: errors %v, sent %d; want every request a response_too_large", res.Errors, res.Requests.Sent)
			}
		})
	}
}

func TestFaultMalformedResponses(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"not HTTP":      "garbage\r\n\r\n",
		"bad status":    "HTTP/1.1 2x2 Accepted\r\nContent-Length: 0\r\n\r\n",
		"bad length":    "HTTP/1.1 202 Accepted\r\nContent-Length: lots\r\n\r\n",
		"short body":    "HTTP/1.1 202 Accepted\r\nContent-Length: 100\r\n\r\nshort",
		"binary header": "HTTP/1.1 202 Accepted\r\nX-\x00\x01: \xff\r\nContent-Length: 0\r\n\r\n",
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := startRaw(t, func(c net.Conn) {
				eachRequest(c, func(c net.Conn) bool {
					_, _ = io.WriteString(c, answer)
					return false // and close
				})
			})
			out, args := faultArgs(t, srv.url(), "-rps", "20", "-duration", "1s", "--no-preflight")
			o := vesload(t, 30*time.Second, args...)
			res := checkFaultRun(t, o, out, time.Second+500*time.Millisecond+10*time.Second)
			want := "bad_response"
			if name == "short body" {
				want = "conn_reset" // the connection closed inside the body
			}
			if res.Errors[want] != res.Requests.Sent || res.Requests.Sent == 0 {
				t.Errorf("errors %v, sent %d: want every request a %s", res.Errors, res.Requests.Sent, want)
			}
		})
	}
}

func TestFaultResetMidResponse(t *testing.T) {
	t.Parallel()
	srv := startRaw(t, func(c net.Conn) {
		eachRequest(c, func(c net.Conn) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 202 Accepted\r\nContent-Length: 100\r\n\r\npart")
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // close with RST
			}
			return false
		})
	})
	out, args := faultArgs(t, srv.url(), "-rps", "20", "-duration", "1s", "--no-preflight")
	o := vesload(t, 30*time.Second, args...)
	res := checkFaultRun(t, o, out, time.Second+500*time.Millisecond+10*time.Second)
	if res.Requests.OK != 0 || res.Errors["conn_reset"]+res.Errors["other"] != res.Requests.Sent {
		t.Errorf("connections reset mid-response: ok %d, errors %v; want each a conn_reset (or other)", res.Requests.OK, res.Errors)
	}
}

func TestFaultTLSHandshake(t *testing.T) {
	t.Parallel()
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	}))
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0)
	untrusted.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)
	plain := startRaw(t, func(c net.Conn) { _, _ = io.WriteString(c, "HTTP/1.1 400 Bad Request\r\n\r\n") })
	targets := map[string]string{
		"untrusted certificate":  untrusted.URL + "/eventListener/v7",
		"plain TCP behind https": "https://" + plain.ln.Addr().String() + "/eventListener/v7",
	}
	for name, url := range targets {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Preflight refuses to start, in one line: the target refuses
			// every request, as a failed rule would say at the end.
			o := vesload(t, 30*time.Second, "--url", url, "-rps", "10", "-duration", "1s", "-q")
			if o.code != exitThreshold || strings.Count(strings.TrimSpace(o.stderr), "\n") != 0 || !strings.Contains(strings.ToLower(o.stderr), "tls") {
				t.Errorf("preflight: exit %d, stderr %q; want exit 3 and one line about TLS", o.code, o.stderr)
			}
			// Without preflight every request is a tls error.
			out, args := faultArgs(t, url, "-rps", "10", "-duration", "1s", "--no-preflight")
			o = vesload(t, 30*time.Second, args...)
			res := checkFaultRun(t, o, out, time.Second+500*time.Millisecond+10*time.Second)
			if res.Errors["tls"] != res.Requests.Sent || res.Requests.Sent == 0 {
				t.Errorf("errors %v, sent %d: want every request a tls error", res.Errors, res.Requests.Sent)
			}
		})
	}
}

func TestFaultNameDoesNotResolve(t *testing.T) {
	t.Parallel()
	// A label of 64 characters is not a domain name: the resolver refuses
	// it without sending a query, so the case stays on this machine.
	host := strings.Repeat("x", 64) + ".invalid"
	url := "http://" + host + ":8080/eventListener/v7"
	o := vesload(t, 30*time.Second, "--url", url, "-rps", "10", "-duration", "1s", "-q")
	if o.code != exitRun || strings.Count(strings.TrimSpace(o.stderr), "\n") != 0 || !strings.Contains(o.stderr, host) {
		t.Errorf("preflight: exit %d, stderr %q; want exit 1 and one line naming the host", o.code, o.stderr)
	}
	out, args := faultArgs(t, url, "-rps", "10", "-duration", "1s", "--no-preflight")
	o = vesload(t, 30*time.Second, args...)
	res := checkFaultRun(t, o, out, time.Second+500*time.Millisecond+15*time.Second)
	if res.Errors["dns"] != res.Requests.Sent || res.Requests.Sent == 0 {
		t.Errorf("errors %v, sent %d: want every request a dns error", res.Errors, res.Requests.Sent)
	}
}

// skipOrRequireMount skips a case that needs to mount a tmpfs, saying
// what is not tested; VESLOAD_REQUIRE_MOUNT=1 (as CI sets it where it runs
// as root) makes that a failure.
func skipOrRequireMount(t *testing.T, what, why string) {
	t.Helper()
	if os.Getenv("VESLOAD_REQUIRE_MOUNT") == "1" {
		t.Fatalf("%s is required (VESLOAD_REQUIRE_MOUNT=1) but cannot run: %s", what, why)
	}
	t.Skipf("%s not tested: %s", what, why)
}

// mountFullDisk mounts a tiny tmpfs, fills it and returns its path; the
// test is skipped, saying why, where mounting is not permitted.
func mountFullDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		skipOrRequireMount(t, "-o on a full disk", "mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		skipOrRequireMount(t, "-o on a full disk", "mounting a tmpfs is not permitted here: "+err.Error())
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			break // full
		}
	}
	return dir
}

func TestFaultOutputOnFullDisk(t *testing.T) {
	t.Parallel()
	full := mountFullDisk(t)
	tmp := t.TempDir()
	out := filepath.Join(full, "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "20", "-duration", "500ms", "-q", "-o", out)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRun {
		t.Fatalf("run = %v, want exit %d; stderr %s", err, exitRun, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no space left on device") || !strings.Contains(stderr.String(), "saved to "+tmp) {
		t.Errorf("stderr %q: want the disk error and where the result went", stderr.String())
	}
	if !strings.Contains(stdout.String(), "Requests") {
		t.Errorf("no summary printed:\n%s", stdout.String())
	}
	saved, _ := filepath.Glob(filepath.Join(tmp, "vesload-result-*.json"))
	if len(saved) != 1 {
		t.Fatalf("saved results %v, want one in %s", saved, tmp)
	}
	if res := readResult(t, saved[0]); res.Requests.Scheduled != 10 {
		t.Errorf("saved result has %d scheduled, want 10", res.Requests.Scheduled)
	}
}

// When the fallback cannot be written either, the result is printed.
func TestFaultOutputNowhereToSave(t *testing.T) {
	t.Parallel()
	full := mountFullDisk(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "20", "-duration", "500ms", "-q", "-o", filepath.Join(full, "r.json"))
	cmd.Env = append(os.Environ(), "TMPDIR="+full)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	text := stderr.String()
	i := strings.Index(text, "{")
	if i < 0 || !strings.Contains(text, "printed on stderr instead") {
		t.Fatalf("stderr %q: want the result printed", text)
	}
	end := strings.LastIndex(text, "}")
	res, err := resultfile.Decode(strings.NewReader(text[i:end+1]), "stderr")
	if err != nil {
		t.Fatalf("the printed result does not decode: %v", err)
	}
	if err := res.AccountingError(); err != nil || res.Requests.Scheduled != 10 {
		t.Errorf("printed result: %+v %v", res.Requests, err)
	}
}

// A pool larger than the open-file limit is clamped with a warning, so no
// connection fails with "too many open files" (it used to: 72 % of the
// requests became "other" errors).
func TestFaultPoolOverOpenFileLimit(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	startServeOnPort(t, port, "--latency", "1s")
	out := filepath.Join(t.TempDir(), "r.json")
	script := fmt.Sprintf("ulimit -n 160 && exec %q --url http://127.0.0.1:%d/eventListener/v7 --pool 1000 -rps 200 -duration 1s --timeout 3s --checkpoint 0 -o %q",
		binary, port, out)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	_ = cmd.Run()
	run := outcome{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if !strings.Contains(run.stderr, "--pool 1000 is more than the open-file limit of 160 allows: pool clamped to 96 connections") {
		t.Errorf("stderr %q: want the clamp announced", run.stderr)
	}
	res := checkFaultRun(t, run, out, time.Second+3*time.Second+15*time.Second)
	if res.Config.Pool != 96 || res.Errors["other"] != 0 {
		t.Errorf("pool %d, errors %v: want 96 connections and no failed connection", res.Config.Pool, res.Errors)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "pool clamped") {
		t.Errorf("result warnings %q do not record the clamp", res.Warnings)
	}
}
