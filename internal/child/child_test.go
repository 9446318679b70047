package child

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/leaktest"
)

// helperEnv makes the test binary act as a child: the value says how.
const helperEnv = "VESLOAD_CHILD_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		leaktest.VerifyTestMain(m)
	case "announce": // two lines, then run until stdin ends
		fmt.Println("first")
		fmt.Println("second")
		_, _ = io.Copy(io.Discard, os.Stdin)
		fmt.Fprintln(os.Stderr, "stopped at end of stdin")
		os.Exit(0)
	case "fail": // an error line and no answer
		fmt.Fprintln(os.Stderr, "first line")
		fmt.Fprintln(os.Stderr, "cannot start: bad flag")
		os.Exit(2)
	case "deaf": // ignores the end of stdin; only a kill stops it
		fmt.Println("up")
		select {}
	}
}

func start(t *testing.T, mode string, stderr io.Writer) *Process {
	t.Helper()
	t.Setenv(helperEnv, mode)
	p, err := Start("the helper", []string{"-test.run=^$"}, stderr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProcess: the child's lines reach the caller in order, its end of
// stdin stops it, a child that ends early says why, and one that does
// not stop when asked is killed; its error lines are passed on at Close.
func TestProcess(t *testing.T) {
	tests := []struct {
		mode      string
		lines     []string
		readErr   string // the ReadLine error after the lines
		stderrHas string
	}{
		{mode: "announce", lines: []string{"first", "second"}, stderrHas: "stopped at end of stdin"},
		{mode: "fail", readErr: "the helper: it ended: cannot start: bad flag", stderrHas: "first line"},
		{mode: "deaf", lines: []string{"up"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var stderr bytes.Buffer
			p := start(t, tt.mode, &stderr)
			if p.Pid() <= 0 {
				t.Errorf("pid %d", p.Pid())
			}
			for _, want := range tt.lines {
				got, err := p.ReadLine(0)
				if err != nil || string(got) != want {
					t.Fatalf("ReadLine: %q, %v; want %q", got, err, want)
				}
			}
			if tt.readErr != "" {
				_, err := p.ReadLine(0)
				if !errors.Is(err, ErrExited) || err.Error() != tt.readErr {
					t.Errorf("ReadLine after the end: %v, want %q", err, tt.readErr)
				}
			}
			p.Close(200 * time.Millisecond)
			p.Close(time.Second) // safe twice
			select {
			case <-p.exited:
			default:
				t.Error("the child still runs after Close")
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr %q, want it to hold %q", stderr.String(), tt.stderrHas)
			}
		})
	}
}

// TestReadLineTimesOut: a child that says nothing more is an error after
// the timeout, not a hang.
func TestReadLineTimesOut(t *testing.T) {
	p := start(t, "deaf", io.Discard)
	defer p.Close(0)
	if _, err := p.ReadLine(0); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadLine(time.Millisecond); err == nil || errors.Is(err, ErrExited) {
		t.Errorf("ReadLine of a silent child: %v, want a time-out", err)
	}
}
