package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

// After a double Ctrl-C (the second aborts the requests in flight), the
// JTL has one row for every request sent: the answered ones and the
// aborted ones, each with its own outcome.
func TestDoubleInterruptKeepsEveryRowInTheJTL(t *testing.T) {
	t.Parallel()
	// Every answer takes 20 s: the run's requests are all in flight when
	// the second Ctrl-C comes.
	url, stop := startServe(t, "--latency", "20s")
	defer stop()
	dir := t.TempDir()
	out, jtl := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.jtl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-url", url+"/eventListener/v7", "-rps", "20", "-duration", "1m",
		"-timeout", "30s", "-o", out, "--jtl", jtl)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	notes := make(chan string, 64)
	go func() {
		for sc.Scan() {
			select {
			case notes <- sc.Text():
			default:
			}
		}
		close(notes)
	}()
	// Some requests are due and in flight (a loaded machine may take
	// seconds to set the run up) before the first Ctrl-C.
	if !waitfor.Ctx(ctx, 50*time.Millisecond, func() bool { return emulatorStats(t, url).InFlight >= 3 }) {
		t.Fatal("no 3 requests in flight in 60 s")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for n := range notes {
		if strings.Contains(n, "press Ctrl-C again") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d", err, exitInterrupted)
	}
	res := readResult(t, out)
	if res.Requests.Sent == 0 || res.Errors["aborted"] == 0 {
		t.Fatalf("sent %d, aborted %d: the test needs requests in flight at the abort", res.Requests.Sent, res.Errors["aborted"])
	}
	b, err := os.ReadFile(jtl)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")[1:] // under the header
	aborted := 0
	for _, r := range rows {
		if strings.Contains(r, ",aborted,") {
			aborted++
		}
	}
	if int64(len(rows)) != res.Requests.Sent || int64(aborted) != res.Errors["aborted"] {
		t.Errorf("JTL: %d rows, %d aborted; result: %d sent, %d aborted", len(rows), aborted, res.Requests.Sent, res.Errors["aborted"])
	}
}
