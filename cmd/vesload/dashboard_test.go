package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/chromiumtest"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
)

// chromiumPath is the browser the tests render pages in.
const chromiumPath = chromiumtest.Path

// needChromium skips the test when Chromium is not installed, unless CI
// requires it (internal/chromiumtest).
func needChromium(t *testing.T) {
	t.Helper()
	chromiumtest.Need(t, "watch the live page in a real browser")
}

// dashboardRun starts vesload with args and returns the URL its
// dashboard announced, a channel that gets the process's exit, and its
// stderr so far.
func dashboardRun(t *testing.T, args ...string) (string, <-chan error, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := &lockedBuffer{}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.add(line)
			if _, u, ok := strings.Cut(line, "serving the live report at "); ok {
				urls <- strings.TrimSpace(u)
			}
		}
	}()
	exited, waited := make(chan error, 1), make(chan error, 1)
	go func() {
		err := cmd.Wait()
		exited <- err
		waited <- err
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-waited
	})
	select {
	case u := <-urls:
		return u, exited, log
	case <-time.After(30 * time.Second):
		t.Fatalf("vesload %v announced no dashboard:\n%s", args, log)
	}
	return "", nil, nil
}

type lockedBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *lockedBuffer) add(s string) {
	b.mu.Lock()
	b.lines = append(b.lines, s)
	b.mu.Unlock()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

// stuckClient subscribes to the event stream with a tiny receive buffer
// and never reads from it, for as long as the test runs.
func stuckClient(t *testing.T, url string) {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
		if err != nil {
			return err
		}
		return serr
	}}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	c, err := d.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := fmt.Fprintf(c, "GET /events HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", host); err != nil {
		t.Fatal(err)
	}
}

// waitFile waits until path exists.
func waitFile(t *testing.T, path string, limit time.Duration) {
	t.Helper()
	if !waitfor.True(limit, 100*time.Millisecond, func() bool { _, err := os.Stat(path); return err == nil }) {
		t.Fatalf("%s not written within %v", path, limit)
	}
}

// droppedUpdates reads the count of the dashboard's warning in r.
func droppedUpdates(r *result.Result) int64 {
	re := regexp.MustCompile(`^dashboard: (\d+) of its updates were dropped`)
	for _, w := range r.Warnings {
		if m := re.FindStringSubmatch(w); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			return n
		}
	}
	return 0
}

// pageState is what a browser shows of the live page.
type pageState struct {
	State   string `json:"state"`
	Updates int    `json:"updates"`
	Charts  int    `json:"charts"`
	Points  int    `json:"points"`
	Sent    int64  `json:"sent"`
	Status  string `json:"status"`
	Error   string `json:"error"`
	Summary string `json:"summary"`
	Legend  string `json:"legend"`
}

const pageStateJS = `(function () {
  var root = document.documentElement, points = 0, sent = -1;
  document.querySelectorAll("[data-axis=seconds]").forEach(function (e) { points += +e.getAttribute("data-points"); });
  document.querySelectorAll("#summary tr").forEach(function (tr) {
    var c = tr.querySelectorAll("td");
    if (c.length === 2 && c[0].textContent === "sent") sent = +c[1].textContent;
  });
  var sum = document.getElementById("summary"), st = document.getElementById("live-status"), leg = document.querySelector(".u-legend");
  return JSON.stringify({state: root.getAttribute("data-live-state") || "", updates: +(root.getAttribute("data-live-updates") || 0),
    charts: +(root.getAttribute("data-charts-drawn") || 0), points: points, sent: sent,
    status: st ? st.textContent : "", error: root.getAttribute("data-chart-error") || "",
    summary: sum ? sum.textContent : "", legend: leg ? leg.textContent : ""});
})()`

func TestDashboardFollowsRun(t *testing.T) {
	t.Parallel()
	needChromium(t)
	dir := t.TempDir()
	out, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	b := startBrowser(t) // first: it takes seconds to start on a busy machine
	url, _, _ := dashboardRun(t, "-rps", "100", "-duration", "10s", "--dashboard", "127.0.0.1:0",
		"--dashboard-linger", "60s", "--threshold", "p99<5s", "-o", out, "--html", page)
	stuckClient(t, url)

	// The first page is opened at once: it waits for the run's first
	// second, which comes through the event stream.
	first := b.open(t, url)
	a := b.state(t, first, func(s pageState) bool { return s.Charts > 0 && s.Sent > 0 })
	if a.State != "running" {
		// The browser took the whole run to show its first page: a
		// machine this busy cannot tell a live page from a late one.
		t.Skipf("the browser showed the page first after the 10 s run had ended (%s): too busy a machine to watch it live", a.Status)
	}
	// The second page is opened once the first has shown the run go on
	// for two more seconds.
	b.state(t, first, func(s pageState) bool { return s.Points >= a.Points+2 && s.Sent > a.Sent })
	second := b.open(t, url)
	c := b.state(t, second, func(s pageState) bool { return s.Charts > 0 && s.Sent > 0 })
	if c.Sent <= a.Sent || c.Points <= a.Points {
		t.Fatalf("the page loaded 2 s later shows %d requests, %d points; the first %d, %d: want both to grow", c.Sent, c.Points, a.Sent, a.Points)
	}
	// The first page grows by itself, from the event stream.
	a2 := b.state(t, first, func(s pageState) bool { return s.Updates > 0 && s.Sent > a.Sent })
	if a2.Points <= a.Points {
		t.Fatalf("first page's charts did not grow with its updates: %+v then %+v", a, a2)
	}
	if strings.Contains(a2.Legend, "–") {
		t.Fatalf("legend shows a dash before the mouse moved: %q", a2.Legend)
	}

	waitFile(t, out, 60*time.Second)
	res := readResult(t, out)
	end := b.state(t, first, func(s pageState) bool { return s.State != "running" })
	if end.State != "finished" || end.Error != "" {
		t.Fatalf("page at the end: %+v", end)
	}
	var want bytes.Buffer
	if err := html.Report(&want, res); err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, want.String(), "summary"); end.Summary != got {
		t.Fatalf("the page's summary after the end:\n%s\nthe result file's:\n%s", end.Summary, got)
	}
	late := b.state(t, b.open(t, url), func(s pageState) bool { return s.Charts > 0 })
	if late.Summary != end.Summary || late.State != "finished" {
		t.Fatalf("a page opened after the end shows %+v", late)
	}
	saved, err := http.Get(url + "report.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(saved.Body)
	saved.Body.Close()
	file, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, file) {
		t.Fatalf("report.html (%d bytes) differs from --html's file (%d bytes)", len(body), len(file))
	}
	t.Logf("first page %d requests, %d points; 3 s later a new page %d, %d; the first page after %d updates %d, %d; %d updates dropped",
		a.Sent, a.Points, c.Sent, c.Points, a2.Updates, a2.Sent, a2.Points, droppedUpdates(res))
	if droppedUpdates(res) == 0 {
		t.Fatalf("a browser that read nothing, yet no dropped updates in the result: %q", res.Warnings)
	}
}

// textOf is the text content of the section with id in a page, as a
// browser's textContent gives it.
func textOf(t *testing.T, page, id string) string {
	t.Helper()
	start := strings.Index(page, `<section id="`+id+`"`)
	if start < 0 {
		t.Fatalf("no section %s", id)
	}
	start = strings.Index(page[start:], ">") + start + 1
	end := strings.Index(page[start:], "</section>") + start
	return stdhtml.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page[start:end], ""))
}

// browser is headless Chromium driven through the DevTools protocol over
// a pipe (--remote-debugging-pipe): no port, no WebSocket.
type browser struct {
	w    io.Writer
	mu   sync.Mutex
	id   int
	wait map[int]chan json.RawMessage
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	// The profile folder is removed here, after the browser's whole process
	// group is gone: its helper processes outlive the main one for a moment
	// and would still be writing there when t.TempDir's clean-up ran.
	profile, err := os.MkdirTemp("", "vesload-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromiumPath, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	toBrowser, ours, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	theirs, fromBrowser, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{toBrowser, fromBrowser} // fds 3 and 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toBrowser.Close()
	fromBrowser.Close()
	b := &browser{w: ours, wait: map[int]chan json.RawMessage{}}
	defer b.call(t, "", "Browser.getVersion", nil) // ready
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(theirs)
		for {
			msg, err := r.ReadBytes(0)
			if err != nil {
				return
			}
			var m struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
				continue
			}
			b.mu.Lock()
			ch := b.wait[m.ID]
			delete(b.wait, m.ID)
			b.mu.Unlock()
			if m.Error != nil {
				ch <- nil
			} else {
				ch <- m.Result
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		ours.Close()
		<-done
		theirs.Close()
		// The group's last processes may still be exiting.
		var err error
		if !waitfor.True(5*time.Second, 100*time.Millisecond, func() bool { err = os.RemoveAll(profile); return err == nil }) {
			t.Logf("browser profile %s: %v", profile, err)
		}
	})
	return b
}

// call sends one command (to a page's session when session is set) and
// waits for its result.
func (b *browser) call(t *testing.T, session, method string, params any) json.RawMessage {
	t.Helper()
	ch := make(chan json.RawMessage, 1)
	b.mu.Lock()
	b.id++
	id := b.id
	b.wait[id] = ch
	msg, _ := json.Marshal(map[string]any{"id": id, "sessionId": session, "method": method, "params": params})
	_, err := b.w.Write(append(msg, 0))
	b.mu.Unlock()
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r == nil {
			t.Fatalf("%s failed", method)
		}
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no answer", method)
	}
	return nil
}

// open loads url in a new tab and returns the tab's session.
func (b *browser) open(t *testing.T, url string) string {
	t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	_ = json.Unmarshal(b.call(t, "", "Target.createTarget", map[string]any{"url": url}), &target)
	var att struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(b.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &att)
	return att.SessionID
}

// state polls a tab until its page satisfies ok.
func (b *browser) state(t *testing.T, session string, ok func(pageState) bool) pageState {
	t.Helper()
	var s pageState
	if !waitfor.True(60*time.Second, 200*time.Millisecond, func() bool {
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		_ = json.Unmarshal(b.call(t, session, "Runtime.evaluate", map[string]any{"expression": pageStateJS, "returnByValue": true}), &r)
		return json.Unmarshal([]byte(r.Result.Value), &s) == nil && ok(s)
	}) {
		t.Fatalf("the page never got there: last %+v", s)
	}
	return s
}

// TestDashboardStuckBrowserKeepsLag runs the same load twice at once, one
// run plain and one with a dashboard whose only browser reads nothing
// from the event stream for the whole run: the dashboard's run keeps
// the plain run's dispatch lag (both see the same machine), and its
// result says how many updates the browser missed.
func TestDashboardStuckBrowserKeepsLag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plainOut, dashOut := filepath.Join(dir, "plain.json"), filepath.Join(dir, "dash.json")
	load := []string{"-rps", "200", "-duration", "10s"}
	plain := make(chan outcome, 1)
	go func() { plain <- vesloadQuiet(append(load, "-q", "-o", plainOut)...) }()
	url, exited, log := dashboardRun(t, append(load, "--dashboard", ":0", "-o", dashOut)...)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("--dashboard :0 served at %s, want the loopback address", url)
	}
	stuckClient(t, url)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("dashboard run: %v\n%s", err, log)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the 10 s run with a stuck browser did not end within a minute:\n%s", log)
	}
	if o := <-plain; o.code != 0 {
		t.Fatalf("plain run exit %d: %s", o.code, o.stderr)
	}
	p, d := readResult(t, plainOut).Generator, readResult(t, dashOut)
	g := d.Generator
	t.Logf("dispatch lag p50/p99/max ms: plain %.3f/%.3f/%.3f, with a stuck browser %.3f/%.3f/%.3f; %d updates dropped",
		p.DispatchLagP50Ms, p.DispatchLagP99Ms, p.DispatchLagMaxMs, g.DispatchLagP50Ms, g.DispatchLagP99Ms, g.DispatchLagMaxMs, droppedUpdates(d))
	if droppedUpdates(d) == 0 {
		t.Fatalf("a browser that read nothing, yet no dropped updates in the result: %q", d.Warnings)
	}
	// When the plain run could not keep its own schedule (the engine's
	// saturation limit, 5 ms), the machine's noise is larger than any
	// difference to measure; a browser that held the run back would
	// still have stopped it, which the time limit above catches.
	if p.DispatchLagP99Ms > 5 {
		t.Skipf("the plain run's dispatch lag p99 is %.1f ms: too busy a machine to compare lags", p.DispatchLagP99Ms)
	}
	// A browser that held the run back would hold it for as long as it
	// stalls: seconds, not the milliseconds a busy machine adds.
	if g.DispatchLagP50Ms > 2*p.DispatchLagP50Ms+0.5 || g.DispatchLagP99Ms > 3*p.DispatchLagP99Ms+20 ||
		g.DispatchLagMaxMs > p.DispatchLagMaxMs+500 {
		t.Fatalf("a stuck browser changed the dispatch lag beyond noise")
	}
}

// vesloadQuiet is vesload for a goroutine: it reports a failure to run
// as exit code -1 instead of ending the test.
func vesloadQuiet(args ...string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	o := outcome{stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		o.code, o.stderr = -1, err.Error()
	}
	return o
}
