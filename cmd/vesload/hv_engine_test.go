package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// jtlRows reads a JTL file's rows (without the header).
func jtlRows(t *testing.T, path string) [][]string {
	t.Helper()
	rows := readJTL(t, path)
	if len(rows) == 0 || rows[0][2] != "label" {
		t.Fatalf("%s: no JTL header: %v", path, rows)
	}
	return rows[1:]
}

// TestHVBackPressureThroughTheEngine: the collector (vesload serve)
// reads each connection at 1 MB/s, far below the 6.5 MB/s each
// producer writes for a second: once the sockets' buffers are full the
// writes block, and the messages are written late. Every
// second with messages has a latency p99 (due → written), nothing is
// pool_exhausted, the JTL has one row per message labelled by its
// producer, and --markdown writes the HV-VES table.
func TestHVBackPressureThroughTheEngine(t *testing.T) {
	t.Parallel()
	addr, _ := startServeHV(t, "--hv-read-rate", "1000000")
	dir := t.TempDir()
	out, jtl, md, hdr := filepath.Join(dir, "hv.json"), filepath.Join(dir, "hv.jtl"), filepath.Join(dir, "hv.md"), filepath.Join(dir, "hv.hlog")
	o := vesload(t, 90*time.Second, "hv", "--addr", addr, "--producers", "2", "--messages", "100", "--size", "65536",
		"--interval", "10ms", "-o", out, "--jtl", jtl, "--markdown", md, "--hdr-log", hdr, "--settle", "1s", "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Scheduled != 200 || res.Requests.OK != 200 || res.Errors[result.ClassPoolExhausted] != 0 {
		t.Fatalf("requests %+v, errors %v: back-pressure must be latency, not pool_exhausted", res.Requests, res.Errors)
	}
	withMessages := 0
	for _, s := range res.Timeline {
		if s.Sent == 0 {
			continue
		}
		withMessages++
		if s.P99Ms <= 0 || s.MaxMs < s.P99Ms {
			t.Errorf("second %d: %d messages, p99 %v ms, max %v ms", s.T, s.Sent, s.P99Ms, s.MaxMs)
		}
	}
	if withMessages < 1 || res.Latency.Max < 100 || res.HV.WriteBlocked.Max <= 0 {
		t.Errorf("%d seconds with messages, latency max %v ms, write blocked %+v: no back-pressure seen",
			withMessages, res.Latency.Max, res.HV.WriteBlocked)
	}
	rows := jtlRows(t, jtl)
	labels := map[string]int{}
	for _, r := range rows {
		labels[r[2]]++
	}
	if len(rows) != 200 || labels["vesload-hv-0"] != 100 || labels["vesload-hv-1"] != 100 {
		t.Errorf("JTL: %d rows, labels %v; want one row per message, by producer", len(rows), labels)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "| Producers | Messages sent |") || strings.Contains(string(b), "Error rate") {
		t.Errorf("--markdown of an HV-VES run:\n%s", b)
	}
	if fi, err := os.Stat(hdr); err != nil || fi.Size() == 0 {
		t.Errorf("--hdr-log: %v", err)
	}
}

// TestHVKilledCollectorShowsDisconnected: the collector's process is
// killed (by its pid) during the run; the messages due afterwards are
// errors of class disconnected in the seconds they were due, the seconds'
// errors add up to the run's, and the run fails (exit 3).
func TestHVKilledCollectorShowsDisconnected(t *testing.T) {
	t.Parallel()
	addr, mon, cmd := startServeHVCmd(t)
	go func() {
		waitfor.True(time.Minute, 10*time.Millisecond, func() bool {
			resp, err := http.Get(mon + "/stats")
			if err != nil {
				return false
			}
			var st hvemu.Stats
			err = json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			return err == nil && st.Received >= 100
		})
		_ = cmd.Process.Kill() // by its pid: this test started it
	}()
	out := filepath.Join(t.TempDir(), "hv.json")
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--addr", addr, "--producers", "2", "--messages", "400", "--interval", "5ms",
		"--size", "1024", "--dial-timeout", "200ms", "--settle", "0s", "-o", out, "-q"}, &stdout, &stderr)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 3\nstderr: %s", code, stderr.String())
	}
	res := readResult(t, out)
	dc := res.Errors[result.ClassDisconnected]
	if dc == 0 || res.HV.NotSentBy[result.ClassDisconnected] != dc || res.Requests.NotSent != 0 {
		t.Fatalf("requests %+v, errors %v, hv not sent %v", res.Requests, res.Errors, res.HV.NotSentBy)
	}
	var errs, dcs int64
	seconds := 0
	for _, s := range res.Timeline {
		errs += s.Errors
		dcs += s.ErrorsByClass[result.ClassDisconnected]
		if s.ErrorsByClass[result.ClassDisconnected] > 0 {
			seconds++
		}
	}
	if errs != res.Requests.Errors || dcs != dc || seconds == 0 {
		t.Errorf("timeline: %d errors (%d disconnected, in %d seconds), the run %d (%d)", errs, dcs, seconds, res.Requests.Errors, dc)
	}
	if g := gate(res, "hv.disconnected==0"); g == nil || g.Pass {
		t.Errorf("gate hv.disconnected==0: %+v", g)
	}
}

// TestHVObservers: an HV-VES run gets the observers a REST run has: live
// metrics, the live page, checkpoints and the abort gates, judged on the
// whole run too.
func TestHVObservers(t *testing.T) {
	t.Parallel()
	emu, err := hvemu.Start(hvemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	out := filepath.Join(t.TempDir(), "hv.json")
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--addr", emu.Addr(), "--producers", "2", "--messages", "100", "--interval", "10ms",
		"--metrics-addr", "127.0.0.1:0", "--dashboard", "127.0.0.1:0", "--checkpoint", "1s", "--abort-on-fail", "error_rate<50%",
		"-v", "-o", out}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", code, stderr.String())
	}
	for _, want := range []string{"serving metrics at http://127.0.0.1:", "serving the live report at http://127.0.0.1:"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	res := readResult(t, out)
	if g := gate(res, "abort-on-fail: error_rate<50% (whole run)"); g == nil || !g.Pass {
		t.Errorf("thresholds %+v", res.Thresholds)
	}
	if res.Interrupted || res.HV == nil || res.HV.Sent.Written != 200 || len(res.Timeline) == 0 || res.Generator.CPUMaxPct <= 0 {
		t.Errorf("result: interrupted %v, hv %+v, %d seconds, generator %+v", res.Interrupted, res.HV, len(res.Timeline), res.Generator)
	}
}
