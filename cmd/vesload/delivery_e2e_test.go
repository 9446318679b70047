package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proctest"
)

var brokerLine = regexp.MustCompile(`publishing to embedded Kafka at (127\.0\.0\.1:\d+)`)

// startServeKafka runs `vesload serve --kafka-embedded` and returns its
// base URL and broker address.
func startServeKafka(t *testing.T, extra ...string) (base, broker string) {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:0", "--kafka-embedded", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	proctest.Start(t, cmd, 15*time.Second)
	urls, brokers := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listenLine.FindString(sc.Text()); m != "" && base == "" {
				urls <- m
			}
			if m := brokerLine.FindStringSubmatch(sc.Text()); m != nil {
				brokers <- m[1]
			}
		}
	}()
	deadline := time.After(10 * time.Second)
	for base == "" || broker == "" {
		select {
		case base = <-urls:
		case broker = <-brokers:
		case <-deadline:
			t.Fatal("vesload serve did not announce its address and broker")
		}
	}
	return base, broker
}

// TestDeliveryEndToEnd follows 500 events (100/s for 5 s) through the
// emulator into its embedded Kafka broker and back out.
func TestDeliveryEndToEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		serve []string
		grace string
		code  int
		check func(t *testing.T, lost, lostAccepted, delivered int64)
	}{
		{"after the acknowledgement", nil, "20s", exitOK, func(t *testing.T, lost, lostAccepted, delivered int64) {
			if delivered != 500 || lost != 0 || lostAccepted != 0 {
				t.Errorf("delivered %d, lost %d (%d though accepted): want 500 delivered, 0 lost", delivered, lost, lostAccepted)
			}
		}},
		{"kafka generation dropping 5%", []string{"--compat", "kafka", "--publish-drop", "0.05", "--seed", "3"}, "2s", exitThreshold,
			func(t *testing.T, lost, lostAccepted, delivered int64) {
				if lost < 10 || lost > 45 || lostAccepted != lost || delivered != 500-lost {
					t.Errorf("delivered %d, lost %d (%d though accepted): want about 25 lost, all of them accepted", delivered, lost, lostAccepted)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base, broker := startServeKafka(t, tt.serve...)
			out := filepath.Join(t.TempDir(), "r.json")
			o := vesload(t, 60*time.Second, "-url", base+"/eventListener/v7", "-rps", "100", "-duration", "5s",
				"--consume", "kafka://"+broker+"/unauthenticated.SEC_FAULT_OUTPUT", "--consume-grace", tt.grace,
				"--threshold", "delivery.lost==0", "--threshold", "e2e_p99<2s", "-o", out)
			if o.code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", o.code, tt.code, o.stderr)
			}
			res := readResult(t, out)
			d := res.Delivery
			if d == nil {
				t.Fatal("no delivery section in the result")
			}
			if res.Requests.OK != 500 || d.Expected != 500 || d.Accepted != 500 {
				t.Fatalf("requests %+v, delivery expected %d accepted %d: want 500 each", res.Requests, d.Expected, d.Accepted)
			}
			tt.check(t, d.Lost, d.LostThoughAccepted, d.Delivered)
			if d.E2E.Count != d.Delivered || d.Consumed.Count != d.Delivered || d.TimestampType != "CreateTime" {
				t.Errorf("e2e %+v, consumed %+v, timestamps %s: want one value per delivered event, CreateTime", d.E2E, d.Consumed, d.TimestampType)
			}
			if d.Duplicates != 0 || d.Foreign != 0 || len(d.Timeline) == 0 {
				t.Errorf("duplicates %d, foreign %d, timeline %d seconds", d.Duplicates, d.Foreign, len(d.Timeline))
			}
			if !strings.Contains(o.stdout, "Delivery (kafka://") || !strings.Contains(o.stdout, "Avg VES processing time") {
				t.Errorf("summary lacks the delivery section or the seed column:\n%s", o.stdout)
			}
		})
	}
}

// TestRunBuiltinEmulatorFollowsDelivery checks that a run with no target
// follows its events through the emulator's embedded broker by itself.
func TestRunBuiltinEmulatorFollowsDelivery(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 60*time.Second, "-rps", "50", "-duration", "2s", "--event", "measurement", "-o", out, "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	d := readResult(t, out).Delivery
	if d == nil || d.Delivered != 100 || d.Lost != 0 || !strings.HasSuffix(d.Source, "/unauthenticated.VES_MEASUREMENT_OUTPUT") {
		t.Fatalf("delivery %+v: want 100 measurement events delivered", d)
	}
}

func TestConsumeBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("Kafka-S3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		flag string
	}{
		{[]string{"--consume", "http://k:9092/t"}, exitUsage, "--consume"},
		{[]string{"--consume", "kafka://k:9092"}, exitUsage, "--consume"},
		{[]string{"--consume", "kafka://k/t"}, exitUsage, "--consume"},
		{[]string{"--consume", "dmaap://mr:3904/events/T"}, exitUsage, "--consume"},
		{[]string{"--consume", "kafka://k:9092/t", "--kafka-mechanism", "GSSAPI"}, exitUsage, "--kafka-mechanism"},
		{[]string{"--consume", "kafka://k:9092/t", "--kafka-user", "u", "--kafka-password-file", filepath.Join(dir, "none")}, exitUsage, "--kafka-password-file"},
		{[]string{"--consume", "kafka://k:9092/t", "--kafka-password-file", pw}, exitUsage, "--kafka-password-file"},
		{[]string{"--consume", "kafka://k:9092/t", "--kafka-cacert", filepath.Join(dir, "none.pem")}, exitUsage, "--kafka-cacert"},
		{[]string{"--consume-grace", "-1s"}, exitUsage, "--consume-grace"},
		{[]string{"--consume", "kafka://127.0.0.1:1/t", "--kafka-user", "u", "--kafka-password-file", pw}, exitRun, "--consume kafka://127.0.0.1:1/t: preflight"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			args := append([]string{"-url", "http://127.0.0.1:1/eventListener/v7", "-rps", "1", "-duration", "1s", "-q"}, tt.args...)
			code := runRun(args, &stdout, &stderr)
			msg := stderr.String()
			if code != tt.code || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.flag) {
				t.Errorf("exit %d, stderr %q: want exit %d and one line naming %s", code, msg, tt.code, tt.flag)
			}
			if strings.Contains(msg, "Kafka-S3cret") {
				t.Errorf("stderr %q shows the password", msg)
			}
		})
	}
}

var hvAddrLine = regexp.MustCompile(`HV-VES emulator on (127\.0\.0\.1:\d+) `)

// TestHVDeliveryEndToEnd follows 500 HV-VES messages (100/s for 5 s)
// into Kafka: through the built-in emulator's broker, and through `vesload
// serve --hv-listen --kafka-embedded` losing 5 % after reading them.
func TestHVDeliveryEndToEnd(t *testing.T) {
	t.Parallel()
	t.Run("built-in emulator", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "hv.json")
		o := vesload(t, 60*time.Second, "hv", "--producers", "1", "--messages", "500", "--interval", "10ms",
			"--threshold", "delivery.lost==0", "--threshold", "e2e_p99<2s", "-o", out)
		if o.code != exitOK {
			t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
		}
		d := readResult(t, out).Delivery
		if d == nil || d.Expected != 500 || d.Delivered != 500 || d.Lost != 0 || !d.NoAnswers ||
			d.E2E.Count != 500 || !strings.HasSuffix(d.Source, "/HV_VES_PERF3GPP") {
			t.Fatalf("delivery %+v: want 500 delivered on HV_VES_PERF3GPP, 0 lost", d)
		}
		if !strings.Contains(o.stdout, "events written (the protocol answers nothing)") {
			t.Errorf("summary lacks the delivery section:\n%s", o.stdout)
		}
	})
	t.Run("serve dropping 5%", func(t *testing.T) {
		t.Parallel()
		args := []string{"serve", "--listen", "127.0.0.1:0", "--hv-listen", "127.0.0.1:0", "--hv-monitor", "127.0.0.1:0",
			"--kafka-embedded", "127.0.0.1:0", "--publish-drop", "0.05", "--seed", "5"}
		addr, broker := startServeLines(t, args, hvAddrLine, brokerLine)
		out := filepath.Join(t.TempDir(), "hv.json")
		o := vesload(t, 60*time.Second, "hv", "--addr", addr, "--producers", "1", "--messages", "500", "--interval", "10ms",
			"--consume", "kafka://"+broker+"/HV_VES_PERF3GPP", "--consume-grace", "2s", "--threshold", "delivery.lost==0", "-o", out, "-q")
		if o.code != exitThreshold {
			t.Fatalf("exit %d, want %d\nstderr: %s", o.code, exitThreshold, o.stderr)
		}
		d := readResult(t, out).Delivery
		if d == nil || d.Expected != 500 || d.Lost < 10 || d.Lost > 45 || d.Delivered != 500-d.Lost || d.LostThoughAccepted != 0 {
			t.Fatalf("delivery %+v: want about 25 of 500 lost", d)
		}
	})
}

// startServeLines runs the binary with args and returns the first
// submatch of each pattern in its log.
func startServeLines(t *testing.T, args []string, res ...*regexp.Regexp) (string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	proctest.Start(t, cmd, 15*time.Second)
	found := make([]chan string, len(res))
	for i := range found {
		found[i] = make(chan string, 1)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			for i, re := range res {
				if m := re.FindStringSubmatch(sc.Text()); m != nil {
					select {
					case found[i] <- m[1]:
					default:
					}
				}
			}
		}
	}()
	got := make([]string, len(res))
	deadline := time.After(10 * time.Second)
	for i := range res {
		select {
		case got[i] = <-found[i]:
		case <-deadline:
			t.Fatalf("%v: no line matching %s", args, res[i])
		}
	}
	return got[0], got[1]
}

// TestConsumeGraceEndsOnSignal checks that Ctrl-C during the wait for
// lost events ends the wait, not the process: the result is written.
func TestConsumeGraceEndsOnSignal(t *testing.T) {
	t.Parallel()
	base, broker := startServeKafka(t, "--compat", "kafka", "--publish-drop", "0.5", "--seed", "9")
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(binary, "-url", base+"/eventListener/v7", "-rps", "50", "-duration", "1s",
		"--consume", "kafka://"+broker+"/unauthenticated.SEC_FAULT_OUTPUT", "--consume-grace", "1h", "-o", out)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ctrl-C stops waiting") {
				close(waiting)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-waiting:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("no line announcing the wait for lost events")
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("vesload after the signal: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the signal did not end the wait")
	}
	d := readResult(t, out).Delivery
	if d == nil || d.Expected != 50 || d.Lost < 10 || d.Lost != 50-d.Delivered {
		t.Fatalf("delivery %+v: want about half of 50 lost", d)
	}
}

// TestConsumeWarnsWithoutRunEventIDs checks the warning for a body
// template whose eventId is not the run's: every record is foreign, none
// of the run's is delivered, and the built-in delivery rule fails the run.
func TestConsumeWarnsWithoutRunEventIDs(t *testing.T) {
	t.Parallel()
	base, broker := startServeKafka(t, "--no-validate")
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	if err := os.WriteFile(body, []byte(faultBody("constant-id")), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	o := vesload(t, 60*time.Second, "-url", base+"/eventListener/v7", "-rps", "20", "-duration", "1s", "--body-file", body,
		"--consume", "kafka://"+broker+"/unauthenticated.SEC_FAULT_OUTPUT", "--consume-grace", "1s", "-o", out, "-q")
	if o.code != exitThreshold || !strings.Contains(o.stdout, "Verdict: FAILED (exit 3): delivery.delivered>0") {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", o.code, exitThreshold, o.stdout, o.stderr)
	}
	res := readResult(t, out)
	// 21 foreign: the preflight's event too, which a body without
	// {{.EventID}} cannot mark as the preflight's.
	if d := res.Delivery; d == nil || d.Delivered != 0 || d.Foreign != 21 || d.Lost != 20 {
		t.Fatalf("delivery %+v: want 21 foreign records (the preflight's among them) and 20 lost", res.Delivery)
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "must use {{.EventID}}") || !strings.Contains(w, "21 records of the topic were not the run's") {
		t.Errorf("warnings %q lack the eventId hint", res.Warnings)
	}
}
