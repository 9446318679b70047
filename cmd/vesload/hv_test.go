package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proctest"
	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/waitfor"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// hvLine is how `vesload serve` announces the HV-VES emulator.
var hvLine = regexp.MustCompile(`HV-VES emulator on (\S+) \([^)]*\); /stats and /metrics on (http://\S+)`)

// startServeHV runs `vesload serve --hv-listen` and returns the HV-VES
// address and the monitoring base URL.
func startServeHV(t *testing.T, extra ...string) (addr, mon string) {
	t.Helper()
	addr, mon, _ = startServeHVCmd(t, extra...)
	return addr, mon
}

// startServeHVCmd is startServeHV that also returns the process, for a
// test to kill by its pid.
func startServeHVCmd(t *testing.T, extra ...string) (addr, mon string, cmd *exec.Cmd) {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:0", "--hv-listen", "127.0.0.1:0", "--hv-monitor", "127.0.0.1:0"}, extra...)
	cmd = exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	proctest.Start(t, cmd, 10*time.Second)
	found := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := hvLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m:
				default:
				}
			}
		}
	}()
	select {
	case m := <-found:
		return m[1], m[2], cmd
	case <-time.After(10 * time.Second):
		t.Fatal("vesload serve did not announce the HV-VES emulator")
	}
	return "", "", nil
}

func hvStats(t *testing.T, mon string, want int64) hvemu.Stats {
	t.Helper()
	var st hvemu.Stats
	waitfor.True(5*time.Second, 20*time.Millisecond, func() bool {
		resp, err := http.Get(mon + "/stats")
		if err != nil {
			t.Fatal(err)
		}
		st = hvemu.Stats{}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		return st.Received >= want
	})
	return st
}

// TestHVAgainstServe is the short form of the 6-producer figure: 6 × 300
// messages of 8 KiB at 10 ms (≈ 3 s) against `vesload serve --hv-listen`,
// in plain TCP and in TLS with a PKCS#12 client store.
func TestHVAgainstServe(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	store, pass := testcert.WriteP12(t, cert, key, "hv-secret")
	for _, c := range []struct {
		name        string
		serve, args []string
	}{
		{"plain", nil, nil},
		{"tls+pkcs12", []string{"--hv-tls-cert", cert, "--hv-tls-key", key, "--hv-client-ca", cert},
			[]string{"--cert", store, "--cert-pass-file", pass, "--cacert", cert}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			addr, mon := startServeHV(t, c.serve...)
			out := filepath.Join(t.TempDir(), "hv.json")
			args := append([]string{"hv", "--addr", addr, "--producers", "6", "--messages", "300", "--size", "8192",
				"--interval", "10ms", "-o", out, "-q", "--target-metrics", mon + "/monitoring/prometheus",
				"--threshold", "hv.lost==0"}, c.args...)
			o := vesload(t, 60*time.Second, args...)
			if o.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
			}
			res := readResult(t, out)
			hv := res.HV
			if res.Config.Protocol != "hv-ves" || hv == nil || hv.Sent.Written != 1800 || hv.Sent.Scheduled != 1800 ||
				hv.Sent.Bytes != 1800*(8192+12) || hv.TLS != (c.args != nil) {
				t.Fatalf("result %+v / %+v", res.Requests, hv)
			}
			rc := hv.Receiver
			if rc == nil || rc.Source != "metrics:"+mon+"/monitoring/prometheus" || rc.Received != 1800 || rc.Lost != 0 ||
				rc.Duplicates == nil || *rc.Duplicates != 0 || rc.TravelAvgMs <= 0 {
				t.Errorf("receiver from the collector's metrics: %+v", rc)
			}
			if res.Target == nil || res.Target.RSSMaxBytes == 0 || len(res.Thresholds) != 1 || !res.Thresholds[0].Pass {
				t.Errorf("target %+v, thresholds %+v", res.Target, res.Thresholds)
			}
			var peak int64
			for _, s := range res.Timeline {
				peak = max(peak, s.BytesSent)
			}
			// 600 frames of 8,204 B a second: 4.92 MB/s when on time (a
			// stalled machine sends late and shifts bytes between seconds)
			// the peak is a whole second's, or the partial last second
			// joined to the one before: never below the average
			if hv.PeakMBps < hv.MBps || hv.PeakMBps > 1.2*float64(peak)/1e6 || hv.PeakMBps < 3.5 || hv.MBps < 3.5 {
				t.Errorf("peak %.2f MB/s (timeline peak %d B), average %.2f", hv.PeakMBps, peak, hv.MBps)
			}
			st := hvStats(t, mon, 1800)
			if st.Received != 1800 || st.Accepted != 1800 || st.DuplicateEventIDs != 0 || len(st.BySource) != 6 {
				t.Errorf("emulator received %d, accepted %d, duplicates %d, sources %v", st.Received, st.Accepted,
					st.DuplicateEventIDs, st.BySource)
			}
			if !strings.Contains(o.stdout, "| Producers | Messages sent |") {
				t.Errorf("summary lacks the HV-VES table:\n%s", o.stdout)
			}
		})
	}
}

func TestHVBuiltinEmulatorAndThresholds(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "hv.json")
	var stdout, stderr bytes.Buffer
	code := hvMain(context.Background(), []string{"--producers", "2", "--messages", "50", "--interval", "2ms",
		"--threshold", "hv.lost==0", "--threshold", "hv.reconnects==0", "--threshold", "hv.written>100", "-o", out, "-q",
		"--label", "build=2.0.1"}, &stdout, &stderr)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 3 (hv.written>100 fails with 100)\nstderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "built-in HV-VES emulator") {
		t.Errorf("no announcement: %s", stderr.String())
	}
	res := readResult(t, out)
	rc := res.HV.Receiver
	if rc == nil || rc.Received != 100 || rc.Lost != 0 || rc.Source != "emulator" || !res.Config.Emulator {
		t.Fatalf("receiver %+v", rc)
	}
	if res.Config.Labels["build"] != "2.0.1" {
		t.Errorf("labels %v, want build=2.0.1", res.Config.Labels)
	}
	pass := map[string]bool{}
	for _, th := range res.Thresholds {
		pass[th.Expr] = th.Pass
	}
	if !pass["hv.lost==0"] || !pass["hv.reconnects==0"] || pass["hv.written>100"] {
		t.Errorf("thresholds %+v", res.Thresholds)
	}
}

func TestHVBadInput(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	store, _ := testcert.WriteP12(t, cert, key, "right")
	_, wrongPass := testcert.WriteP12(t, cert, key, "wrong")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--size", "50"}, exitUsage, "--size:"},
		{[]string{"--size", "1048577"}, exitUsage, "--size:"},
		{[]string{"--producers", "0"}, exitUsage, "--producers:"},
		{[]string{"--messages", "0"}, exitUsage, "--messages:"},
		{[]string{"--interval", "0s"}, exitUsage, "--interval:"},
		{[]string{"--interval", "soon"}, exitUsage, "interval"},
		{[]string{"--rate", "100", "--interval", "1ms"}, exitUsage, "--rate and --interval"},
		{[]string{"--rate", "-5"}, exitUsage, "--rate:"},
		{[]string{"--duration", "1s", "--messages", "5"}, exitUsage, "--duration and --messages"},
		{[]string{"--duration", "-1s"}, exitUsage, "--duration:"},
		{[]string{"--addr", "collector"}, exitUsage, `--addr "collector": want HOST:PORT`},
		{[]string{"--addr", "127.0.0.1:99999"}, exitUsage, `vesload hv: --addr "127.0.0.1:99999": port 99999 out of range (want 1 to 65535)`},
		{[]string{"--addr", ":6061"}, exitUsage, `--addr ":6061": no host`},
		{[]string{"--run-id", "a b"}, exitUsage, "--run-id:"},
		// refused before a built-in emulator is started for the run
		{[]string{"--label", "bad label"}, exitUsage, `--label: label "bad label": want KEY=VALUE`},
		{[]string{"--cacert", cert}, exitUsage, "need --addr"},
		{[]string{"--addr", closed, "--cert", store, "--cert-pass-file", wrongPass}, exitUsage, "wrong password"},
		{[]string{"--addr", closed}, exitRun, "connect to " + closed},
		{[]string{"--profile", "ves-50rps-10m"}, exitUsage, "no load.producers"},
		{[]string{"--threshold", "hv.nothing<1"}, exitUsage, "unknown HV-VES metric"},
		{[]string{"--target-metrics", "http://127.0.0.1:1/metrics"}, exitUsage, "need --addr"},
		{[]string{"--addr", closed, "--shard", "0/2", "--run-id", "d", "--start-at", later, "--consume", "kafka://127.0.0.1:1/t"}, exitUsage, "--consume: not available with --shard"},
		{[]string{"--addr", closed, "--target-metrics", "ftp://x"}, exitUsage, "--target-metrics: want an http"},
		{[]string{"--addr", closed, "--target-metrics", "http://" + closed + "/metrics"}, exitRun, "--target-metrics:"},
		{[]string{"--addr", closed, "--rendezvous", "127.0.0.1:1"}, exitUsage, "--rendezvous needs --shard"},
		{[]string{"--addr", closed, "--shard", "0/2", "--run-id", "d", "--rendezvous", "127.0.0.1:1", "--start-at", later}, exitUsage, "--rendezvous with --start-at"},
		{[]string{"--addr", closed, "--with-consumer"}, exitUsage, "--with-consumer needs --shard"},
	} {
		var stdout, stderr bytes.Buffer
		begin := time.Now()
		code := hvMain(context.Background(), append(c.args, "-q"), &stdout, &stderr)
		line := stderr.String()
		if code != c.code || !strings.Contains(line, c.want) || strings.Count(line, "\n") != 1 || strings.Contains(line, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, line, c.code, c.want)
		}
		if time.Since(begin) > 5*time.Second {
			t.Errorf("%v took %v", c.args, time.Since(begin))
		}
	}
}

func TestHVInterruptAccountsForEveryMessage(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "hv.json")
	// long enough for the built-in emulator, a child process, to start under -race
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := hvMain(ctx, []string{"--producers", "3", "--messages", "100000", "--interval", "1ms", "--size", "1000", "-o", out, "-q"}, &stdout, &stderr)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want 130\nstderr: %s", code, stderr.String())
	}
	res := readResult(t, out)
	s := res.HV.Sent
	if !res.Interrupted || s.Scheduled != 300000 || s.Scheduled != s.Sent+s.NotSent || s.Sent != s.Written+s.Failed ||
		s.Written == 0 || res.HV.NotSentBy["stopped"] == 0 {
		t.Errorf("interrupted %v, counts %+v, not sent %v", res.Interrupted, s, res.HV.NotSentBy)
	}
}

func TestHVProfile(t *testing.T) {
	t.Parallel()
	var o hvOptions
	fs := hvFlags(&o)
	if err := parseFlags(fs, []string{"--profile", "hv-producers-8k", "--messages", "7"}); err != nil {
		t.Fatal(err)
	}
	cfg, _, _, err := hvConfig(&o, fs.Changed)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Producers != 6 || cfg.Messages != 7 || cfg.Size != 8192 || cfg.Interval != 10*time.Millisecond {
		t.Errorf("config from the profile: %+v", cfg)
	}
	o = hvOptions{}
	fs = hvFlags(&o)
	if err := parseFlags(fs, []string{"--profile", "hv-nodmaap-14x90000-8k", "--duration", "1m"}); err != nil {
		t.Fatal(err)
	}
	if cfg, _, _, err = hvConfig(&o, fs.Changed); err != nil || cfg.Producers != 14 || cfg.Messages != 6000 {
		t.Errorf("14 producers shortened to 1 minute: %+v %v", cfg, err)
	}
}

func TestServeHVFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hv-tls-cert", "c.pem"}, "need --hv-listen"},
		{[]string{"--hv-listen", "127.0.0.1:0", "--hv-tls-cert", "c.pem"}, "give both"},
		{[]string{"--hv-listen", "127.0.0.1:0", "--hv-idle-timeout", "0s"}, "--hv-idle-timeout:"},
		{[]string{"--hv-listen", "127.0.0.1:0", "--hv-read-rate", "-1"}, "--hv-read-rate:"},
		{[]string{"--hv-listen", "127.0.0.1:0", "--hv-max-payload", "0"}, "--hv-max-payload:"},
	} {
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		code := serve(ctx, append([]string{"--listen", "127.0.0.1:0", "--quiet"}, c.args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr.String())
		}
	}
}

// What the collector will not route, and what an HV-VES run ignores of a
// profile, are said before the run, whether or not the receiver is
// observed.
func TestHVSetUpWarnings(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	profile := filepath.Join(t.TempDir(), "hv.yaml")
	if err := os.WriteFile(profile, []byte("name: p\nload:\n  producers:\n    count: 1\n    messages: 5\n    interval: 10ms\nrequests:\n  - event: fault\n    size: 1024\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--domain", "fault"}, "vesload hv: warning: --domain fault: the collector's documented routing has no topic for it"},
		{[]string{"--profile", profile}, "vesload hv: warning: --profile " + profile + ": requests[0] event: fault: ignored by an HV-VES run"},
	} {
		var stdout, stderr bytes.Buffer
		code := hvMain(context.Background(), append(c.args, "--addr", closed, "-q"), &stdout, &stderr)
		if code != exitRun || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), exitRun, c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	hvMain(context.Background(), []string{"--domain", "perf3gpp", "--addr", closed, "-q"}, &stdout, &stderr)
	if strings.Contains(stderr.String(), "warning") {
		t.Errorf("a routed domain warned: %q", stderr.String())
	}
}
