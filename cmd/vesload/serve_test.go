package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

func TestServeBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	emptyAuth := filepath.Join(dir, "empty")
	if err := os.WriteFile(emptyAuth, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"--latency", "soon"}, "latency"},
		{[]string{"--nope"}, "nope"},
		{[]string{"--compat", "v8"}, "--compat"},
		{[]string{"--preset", "kafka"}, `--preset: unknown preset "kafka" (want cambria or dmaap)`},
		{[]string{"--error-rate", "2"}, "--error-rate"},
		{[]string{"--error-rate", "-0.1"}, "--error-rate"},
		{[]string{"--backend-pool", "0"}, "--backend-pool"},
		{[]string{"--backend-queue", "-1"}, "--backend-queue"},
		{[]string{"--publish-time", "-1s"}, "--publish-time"},
		{[]string{"--jitter", "-1s"}, "--jitter"},
		{[]string{"--latency", "1ms", "--jitter", "5ms"}, "--jitter"},
		{[]string{"--stall", "2s"}, "--stall"},
		{[]string{"--auth", "secretonly"}, "--auth"},
		{[]string{"--auth", "a:b", "--auth-file", emptyAuth}, "--auth-file"},
		{[]string{"--auth-file", emptyAuth}, "--auth-file"},
		{[]string{"--auth-file", filepath.Join(dir, "missing")}, "--auth-file"},
		{[]string{"--tls-cert", "c.pem"}, "--tls-key"},
		{[]string{"--tls-cert", filepath.Join(dir, "c.pem"), "--tls-key", filepath.Join(dir, "k.pem")}, "--tls-cert"},
		{[]string{"extra"}, "extra"},
		{[]string{"--publish", "http://k:9092"}, "--publish"},
		{[]string{"--publish", "kafka://k"}, "--publish"},
		{[]string{"--publish", "kafka://k:9092/topic"}, "--publish"},
		{[]string{"--publish", "kafka://k:9092", "--kafka-embedded", "127.0.0.1:0"}, "--kafka-embedded"},
		{[]string{"--kafka-embedded", "127.0.0.1:0", "--publish-drop", "1.5"}, "--publish-drop"},
		{[]string{"--kafka-embedded", "127.0.0.1:0", "--publish-delay", "-1s"}, "--publish-delay"},
		{[]string{"--kafka-embedded", "127.0.0.1:0", "--publish-buffer", "0"}, "--publish-buffer"},
		{[]string{"--publish-drop", "0.1"}, "--kafka-embedded"},
		{[]string{"--compat", "kafka"}, "--compat kafka"},
		{[]string{"--auth", "a:b", "--auth-cost", "3"}, "--auth-cost"},
		{[]string{"--auth", "a:b", "--auth-cost", "17"}, "--auth-cost"},
		{[]string{"--auth", "a:b", "--client-ca", "ca.pem"}, "--client-ca"},
		{[]string{"--http-listen", "127.0.0.1:0"}, "--http-listen"},
		{[]string{"--streams", "fault"}, "--streams"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := serve(context.Background(), tc.args, &stdout, &stderr)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr.String())
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.flag) {
				t.Errorf("stderr %q: want one line naming %s", msg, tc.flag)
			}
			if strings.Contains(msg, "secretonly") {
				t.Errorf("stderr %q echoes the credentials", msg)
			}
		})
	}
}

func TestServeHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := serve(context.Background(), []string{"--help"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, flag := range []string{"--listen", "--backend-pool", "--publish-time", "--stall", "--auth-file"} {
		if !strings.Contains(stdout.String(), flag) {
			t.Errorf("usage does not mention %s", flag)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the emulator's log goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeRuns(t *testing.T) {
	t.Parallel()
	authFile := filepath.Join(t.TempDir(), "auth")
	if err := os.WriteFile(authFile, []byte("sample1:s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- serve(ctx, []string{"-listen", "127.0.0.1:0", "--auth-file", authFile,
			"--publish-time", "1ms", "--compat", "legacy", "--auth-cost", "4"}, &stdout, &stderr)
	}()
	urlRe := regexp.MustCompile(`emulator on (http://127\.0\.0\.1:\d+)/eventListener/v7 `)
	var base string
	if !waitfor.True(10*time.Second, 5*time.Millisecond, func() bool {
		if m := urlRe.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		}
		return base != ""
	}) {
		t.Fatalf("no URL line; stderr %q", stderr.String())
	}
	body := `{"event":{"commonEventHeader":{"domain":"fault","eventId":"x1","eventName":"n","sequence":1,` +
		`"priority":"High","reportingEntityName":"r","sourceName":"s","startEpochMicrosec":1,` +
		`"lastEpochMicrosec":1,"version":"4.1","vesEventListenerVersion":"7.2"}}}`
	req, err := http.NewRequest("POST", base+"/eventListener/v7", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("sample1", "s3cret")
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("post event: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200 (legacy compat)", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("exit %d, want 0; stderr %q", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after cancel")
	}
	out := stderr.String()
	if !strings.Contains(out, "1 requests (1 accepted, 0 rejected), 1 events") || !strings.Contains(out, "200=1") {
		t.Errorf("summary missing or wrong in %q", out)
	}
	if strings.Contains(out, "s3cret") {
		t.Errorf("stderr %q shows the password", out)
	}
	if !strings.Contains(out, "basic auth (BCrypt cost 4)") || !strings.Contains(out, "auth: 1 basic, 0 certificate") {
		t.Errorf("stderr %q: want the BCrypt cost and the auth count", out)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
}

// A port already taken fails the emulator in one line (exit 1); an
// address that names no port is bad usage (exit 2), said in the flag's
// terms before anything listens.
func TestServeListenFailure(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var stdout, stderr bytes.Buffer
	code := serve(context.Background(), []string{"--listen", taken.Addr().String(), "--quiet"}, &stdout, &stderr)
	if code != exitRun {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitRun, stderr.String())
	}
	if strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "listen") {
		t.Errorf("stderr %q: want one line about listening", stderr.String())
	}
	stderr.Reset()
	code = serve(context.Background(), []string{"--listen", "127.0.0.1:99999", "--quiet"}, &stdout, &stderr)
	if code != exitUsage || stderr.String() != "vesload serve: invalid argument \"127.0.0.1:99999\" for \"--listen\" flag: port 99999 out of range (want 0 to 65535)\n" {
		t.Errorf("port out of range: exit %d, stderr %q", code, stderr.String())
	}
}

// The emulator's basic auth costs what the collector's does unless told
// otherwise: BCrypt at cost 10.
func TestServeAuthCostDefault(t *testing.T) {
	t.Parallel()
	f := &serveFlags{}
	fs := newFlagSet("serve")
	f.declare(fs)
	if err := fs.Parse([]string{"--auth", "u:p"}); err != nil {
		t.Fatal(err)
	}
	o, err := f.in.Check()
	if err != nil {
		t.Fatal(err)
	}
	if o.AuthCost != 10 {
		t.Errorf("AuthCost %d, want the collector's 10", o.AuthCost)
	}
	var stdout, stderr bytes.Buffer
	serve(context.Background(), []string{"--help"}, &stdout, &stderr)
	found := false
	for _, line := range strings.Split(stdout.String(), "\n") {
		found = found || strings.Contains(line, "--auth-cost") && strings.Contains(line, "(default 10)")
	}
	if !found {
		t.Errorf("usage does not show --auth-cost with default 10:\n%s", stdout.String())
	}
}
