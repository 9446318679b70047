package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// gate returns the outcome of the gate expr in res, or nil.
func gate(res *result.Result, expr string) *result.Threshold {
	for i := range res.Thresholds {
		if res.Thresholds[i].Expr == expr {
			return &res.Thresholds[i]
		}
	}
	return nil
}

func hasWarning(res *result.Result, part string) bool {
	for _, w := range res.Warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// TestHVDisconnectFailsTheRun: the collector goes away mid-run; the
// messages due while no connection could be made are errors and fail the
// run, never "cut off by the stop".
func TestHVDisconnectFailsTheRun(t *testing.T) {
	t.Parallel()
	s, err := hvemu.Start(hvemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		waitfor.True(time.Minute, 2*time.Millisecond, func() bool { return s.Stats().Received >= 20 })
		s.Close()
	}()
	out := filepath.Join(t.TempDir(), "hv.json")
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--addr", s.Addr(), "--producers", "2", "--messages", "200",
		"--interval", "2ms", "--size", "1024", "--dial-timeout", "200ms", "-o", out, "-q"}, &stdout, &stderr)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 3\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	res := readResult(t, out)
	dc := res.Errors[result.ClassDisconnected]
	if dc == 0 || res.Requests.NotSent != 0 || res.Requests.Errors < dc {
		t.Errorf("requests %+v, errors %v", res.Requests, res.Errors)
	}
	if g := gate(res, "hv.disconnected==0"); g == nil || g.Pass || g.Value != float64(dc) {
		t.Errorf("gate hv.disconnected==0: %+v", g)
	}
	if !hasWarning(res, "no connection") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if err := res.AccountingError(); err != nil {
		t.Error(err)
	}
	if strings.Contains(stdout.String(), "not sent      0") || !strings.Contains(stdout.String(), "disconnected") {
		t.Logf("summary:\n%s", stdout.String())
	}
	if got := stdout.String(); !strings.Contains(got, "accounting: scheduled = sent + disconnected + not_sent holds") {
		t.Errorf("summary does not account for the disconnected messages:\n%s", got)
	}
}

// TestHVDroppedFailsTheRun: every message dropped by the receiver
// (unrouted domain) is shown and fails the run; --allow-errors lets it
// pass with the warning kept.
func TestHVDroppedFailsTheRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		extra []string
		code  int
	}{{nil, exitThreshold}, {[]string{"--allow-errors"}, exitOK}} {
		out := filepath.Join(t.TempDir(), "hv.json")
		var stdout, stderr bytes.Buffer
		code := hvMain(context.Background(), append([]string{"--domain", "nosuch", "--producers", "2", "--messages", "5",
			"--interval", "2ms", "-o", out, "-q"}, c.extra...), &stdout, &stderr)
		if code != c.code {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", c.extra, code, c.code, stdout.String(), stderr.String())
		}
		res := readResult(t, out)
		if !hasWarning(res, "dropped 10 of the 10") {
			t.Errorf("%v: warnings %q", c.extra, res.Warnings)
		}
		g := gate(res, "hv.dropped==0")
		if c.code == exitThreshold && (g == nil || g.Pass || g.Value != 10) {
			t.Errorf("gate hv.dropped==0: %+v", g)
		}
		if c.code == exitOK && g != nil {
			t.Errorf("--allow-errors: gate still added: %+v", g)
		}
	}
}

// TestHVPreflightRefusedCertificate: a TLS listener that requires a
// client certificate the run does not have ends the run before the load,
// with one line and exit 1.
func TestHVPreflightRefusedCertificate(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	s, err := hvemu.Start(hvemu.Options{TLSCertFile: cert, TLSKeyFile: key, ClientCAFile: cert})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--addr", s.Addr(), "--cacert", cert, "--producers", "2",
		"--messages", "20", "--interval", "2ms", "-q"}, &stdout, &stderr)
	if code != exitRun || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "certificate") {
		t.Errorf("exit %d, want 1 with one line naming the certificate; stderr %q", code, stderr.String())
	}
	if st := s.Stats(); st.Received != 0 {
		t.Errorf("received %d messages after a refused handshake", st.Received)
	}
}

// TestHVPlainToTLSNothingReceived: plain TCP frames to a TLS listener are
// written, yet the observed receiver counts none: the run fails (exit 3).
func TestHVPlainToTLSNothingReceived(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	addr, mon := startServeHV(t, "--hv-tls-cert", cert, "--hv-tls-key", key)
	out := filepath.Join(t.TempDir(), "hv.json")
	o := vesload(t, 60*time.Second, "hv", "--addr", addr, "--producers", "1", "--messages", "20", "--interval", "5ms",
		"--settle", "1s", "--target-metrics", mon+"/monitoring/prometheus", "-o", out, "-q")
	if o.code != exitThreshold {
		t.Fatalf("exit %d, want 3\nstdout: %s\nstderr: %s", o.code, o.stdout, o.stderr)
	}
	res := readResult(t, out)
	if g := gate(res, "hv.received>0"); g == nil || g.Pass {
		t.Errorf("gate hv.received>0: %+v (thresholds %+v)", g, res.Thresholds)
	}
	if !hasWarning(res, "received none") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
