package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

var emulatorLine = regexp.MustCompile(`built-in emulator: process (\d+) \(vesload serve\), REST (http://127\.0\.0\.1:\d+), HV-VES (127\.0\.0\.1:\d+), Kafka (127\.0\.0\.1:\d+), seed (\d+)`)

// parentOf reads the parent pid of pid from /proc (Linux), or -1 once the
// process is gone (a zombie counts as gone: it runs nothing).
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 || fields[0] == "Z" || fields[0] == "X" {
		return -1
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// waitGone polls until pid no longer runs, for up to 10 s.
func waitGone(t *testing.T, pid int, after string) {
	t.Helper()
	if !waitfor.True(10*time.Second, 20*time.Millisecond, func() bool { return parentOf(pid) == -1 }) {
		t.Fatalf("emulator process %d still runs %s", pid, after)
	}
}

// startRun starts the binary with args and returns the emulator's pid
// from its announcement line.
func startRun(t *testing.T, args ...string) (*exec.Cmd, int, chan error) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	pids := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := emulatorLine.FindStringSubmatch(sc.Text()); m != nil {
				pid, _ := strconv.Atoi(m[1])
				pids <- pid
				break
			}
		}
		// Wait closes stderr once vesload exits, even if an emulator
		// left behind still holds the other end.
		done <- cmd.Wait()
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	select {
	case pid := <-pids:
		t.Cleanup(func() { // a failed test leaves no emulator behind either
			if parentOf(pid) != -1 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
		return cmd, pid, done
	case err := <-done:
		t.Fatalf("vesload %v ended (%v) without announcing its emulator", args, err)
	case <-time.After(20 * time.Second):
		t.Fatalf("vesload %v did not announce its emulator", args)
	}
	return nil, 0, nil
}

// waitRunEnds waits, up to 60 s, for the started vesload to end well.
func waitRunEnds(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not end")
	}
}

// killRun kills the started vesload with SIGKILL, which it cannot catch,
// and waits until it is gone.
func killRun(t *testing.T, cmd *exec.Cmd, done <-chan error) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := <-done; !errors.As(err, &ee) {
		t.Fatalf("killed vesload: %v", err)
	}
}

// TestEmulatorIsAChildProcess: with no target, the process tree shows
// the emulator as vesload's child, and it is gone when the run ends, or
// when vesload is killed with SIGKILL and cannot clean up.
func TestEmulatorIsAChildProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the process tree from /proc")
	}
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "--rps", "20", "--duration", "2s", "--quiet"}},
		{"hv", []string{"hv", "--producers", "1", "--messages", "150", "--quiet"}},
	} {
		t.Run(c.name+" ends", func(t *testing.T) {
			t.Parallel()
			cmd, pid, done := startRun(t, append(c.args, "-o", t.TempDir()+"/r.json")...)
			if ppid := parentOf(pid); ppid != cmd.Process.Pid {
				t.Errorf("emulator %d has parent %d, want vesload %d", pid, ppid, cmd.Process.Pid)
			}
			waitRunEnds(t, done)
			waitGone(t, pid, "after the run")
		})
		t.Run(c.name+" killed", func(t *testing.T) {
			t.Parallel()
			long := []string{"hv", "--producers", "1", "--messages", "100000", "--quiet"}
			if c.name == "run" {
				long = []string{"run", "--rps", "20", "--duration", "10m", "--quiet"}
			}
			cmd, pid, done := startRun(t, long...)
			killRun(t, cmd, done)
			waitGone(t, pid, "after vesload was killed with SIGKILL")
		})
	}
}

// TestServeNamesItsRandomSeed: --seed 0 (the default) is a new random
// seed in every `vesload serve`, named in the start lines so that a run
// can be repeated with it.
func TestServeNamesItsRandomSeed(t *testing.T) {
	t.Parallel()
	seedLine := regexp.MustCompile(`drop 0\.5 \(seed (\d+)\)`)
	restLine := regexp.MustCompile(`emulator on http://\S+/eventListener/v7 \(.*error rate 0\.1, seed (\d+)`)
	args := []string{"serve", "--listen", "127.0.0.1:0", "--kafka-embedded", "127.0.0.1:0", "--publish-drop", "0.5", "--error-rate", "0.1"}
	seed1, rest1 := startServeLines(t, args, seedLine, restLine)
	seed2, rest2 := startServeLines(t, args, seedLine, restLine)
	if seed1 == seed2 || seed1 == "0" || seed2 == "0" || rest1 != seed1 || rest2 != seed2 {
		t.Errorf("two serves with --seed 0 used seeds %s and %s (REST side %s and %s)", seed1, seed2, rest1, rest2)
	}
	again, _ := startServeLines(t, append(args, "--seed", seed1), seedLine, restLine)
	if again != seed1 {
		t.Errorf("--seed %s announced seed %s", seed1, again)
	}
}

// TestEmulatorSeedInResult: the seed the built-in emulator drew for its
// random choices is named in its start line and kept in the result, for
// the REST and the HV-VES run alike, and differs from run to run.
func TestEmulatorSeedInResult(t *testing.T) {
	t.Parallel()
	seeds := map[string]bool{}
	for _, args := range [][]string{
		{"run", "--rps", "20", "--duration", "1s", "--quiet"},
		{"run", "--rps", "20", "--duration", "1s", "--quiet"},
		{"hv", "--producers", "1", "--messages", "20", "--quiet"},
	} {
		out := filepath.Join(t.TempDir(), "r.json")
		b, err := exec.Command(binary, append(args, "-o", out)...).CombinedOutput()
		if err != nil {
			t.Fatalf("vesload %v: %v\n%s", args, err, b)
		}
		m := emulatorLine.FindSubmatch(b)
		if m == nil {
			t.Fatalf("vesload %v: no emulator line in\n%s", args, b)
		}
		res := readResult(t, out)
		if got := strconv.FormatUint(res.Config.EmulatorSeed, 10); got != string(m[5]) || got == "0" {
			t.Errorf("vesload %v: result's emulator seed %s, start line's %s", args, got, m[5])
		}
		seeds[string(m[5])] = true
	}
	if len(seeds) != 3 {
		t.Errorf("three runs drew the seeds %v", seeds)
	}
}

// childrenOf lists the processes whose parent is pid and whose command
// line holds word (Linux /proc).
func childrenOf(pid int, word string) []int {
	entries, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range entries {
		c, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(c) != pid {
			continue
		}
		if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", c)); err == nil && strings.Contains(string(cmdline), "\x00"+word+"\x00") {
			kids = append(kids, c)
		}
	}
	return kids
}

// TestConsumerIsAChildProcess: a run that follows delivery (the built-in
// emulator's topic, followed without being asked) runs the follower as
// `vesload consume`, a child of vesload, and none is left after the run
// or after vesload was killed with SIGKILL.
func TestConsumerIsAChildProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the process tree from /proc")
	}
	t.Parallel()
	for _, c := range []struct {
		name       string
		args, long []string
	}{
		{"run", []string{"run", "--rps", "20", "--duration", "3s", "--consume-grace", "2s", "--quiet"},
			[]string{"run", "--rps", "20", "--duration", "10m", "--quiet"}},
		{"hv", []string{"hv", "--producers", "1", "--messages", "150", "--consume-grace", "2s", "--quiet"},
			[]string{"hv", "--producers", "1", "--messages", "100000", "--quiet"}},
	} {
		for _, killed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s killed=%v", c.name, killed), func(t *testing.T) {
				t.Parallel()
				args := append(c.args, "-o", t.TempDir()+"/r.json")
				if killed {
					args = c.long
				}
				cmd, _, done := startRun(t, args...)
				var kids []int
				waitfor.True(20*time.Second, 20*time.Millisecond, func() bool {
					kids = childrenOf(cmd.Process.Pid, "consume")
					return len(kids) > 0
				})
				if len(kids) != 1 {
					t.Fatalf("vesload %d has consumer children %v, want one", cmd.Process.Pid, kids)
				}
				consumer := kids[0]
				t.Cleanup(func() {
					if parentOf(consumer) != -1 {
						_ = syscall.Kill(consumer, syscall.SIGKILL)
					}
				})
				if killed {
					killRun(t, cmd, done)
					waitGone(t, consumer, "after vesload was killed with SIGKILL")
					return
				}
				waitRunEnds(t, done)
				waitGone(t, consumer, "after the run")
			})
		}
	}
}

// TestEmulatorSampledByDefault: a run against the built-in emulator
// samples it as the target, by the pid it announced: its CPU and memory
// are in the result and the seed table's "Max CPU %" is a figure, not
// n/a. Both commands that start it (run, hv) do.
func TestEmulatorSampledByDefault(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "--rps", "20", "--duration", "2s", "--quiet"}},
		{"hv", []string{"hv", "--producers", "1", "--messages", "150", "--quiet"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			o := vesload(t, 60*time.Second, append(c.args, "-o", out)...)
			m := emulatorLine.FindStringSubmatch(o.stderr)
			if o.code != exitOK || m == nil {
				t.Fatalf("exit %d, stderr: %s", o.code, o.stderr)
			}
			res := readResult(t, out)
			if tg := res.Target; tg == nil || tg.Source != "pid:"+m[1] || tg.RSSMaxBytes <= 0 {
				t.Fatalf("target %+v, want the emulator's process %s sampled", res.Target, m[1])
			}
			if strings.Contains(o.stdout, "| n/a |") {
				t.Errorf("the seed table has n/a:\n%s", o.stdout)
			}
		})
	}
}
