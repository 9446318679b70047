package main

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A Ctrl-C while a shard waits for the others to be ready stops it
// cleanly: exit 130 and one line saying nothing was sent, not the
// default action of the signal.
func TestInterruptBeforeTheStart(t *testing.T) {
	t.Parallel()
	url, stop := startServe(t)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-url", url+"/eventListener/v7", "-rps", "10", "-duration", "5s",
		"--shard", "0/2", "--run-id", "abcdef0123456789", "--rendezvous", fmt.Sprintf("127.0.0.1:%d", freePort(t)),
		"--ready-timeout", "1m")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "waiting for the other shards") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, exitInterrupted, strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(lines, "\n"), "vesload: interrupted before the run started: nothing was sent") {
		t.Fatalf("stderr:\n%s", strings.Join(lines, "\n"))
	}
}
