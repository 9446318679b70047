package sample

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"github.com/vesload/vesload/internal/waitfor"
)

// sampleAfter waits d and takes one reading at the current time.
func sampleAfter(t *testing.T, s Sampler, d time.Duration) Reading {
	t.Helper()
	time.Sleep(d)
	r, err := s.Sample(context.Background(), time.Now())
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	return r
}

func TestProcessSamplesKnownCPUShare(t *testing.T) {
	t.Parallel()
	c := startChild(t, "", 0.5, time.Minute, true)
	before, t0 := cpuTicks(t, c.pid()), time.Now()
	s, err := NewProcess([]int32{c.pid()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Source(), fmt.Sprintf("pid:%d", c.pid()); got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
	r := sampleAfter(t, s, 2*time.Second)
	after, t1 := cpuTicks(t, c.pid()), time.Now()
	if r.NoCPU {
		t.Fatal("NoCPU on a primed sampler")
	}
	// The kernel's own accounting over the same window, read here
	// independently (USER_HZ is 100 on Linux), must agree.
	kernel := float64(after-before) / 100 / t1.Sub(t0).Seconds() * 100
	if d := r.CPUPct - kernel; d < -5 || d > 5 {
		t.Errorf("CPUPct = %.1f, kernel accounting says %.1f", r.CPUPct, kernel)
	}
	// The child burns half a core. A shared two-core machine may give it
	// less, so the range is wide, and it is only checked when the kernel
	// says the child got its share at all.
	if kernel >= 20 && (r.CPUPct < 20 || r.CPUPct > 80) {
		t.Errorf("CPUPct = %.1f, want 20..80", r.CPUPct)
	} else if kernel < 20 {
		t.Logf("machine too busy for the nominal check: the child got %.1f%% of a core", kernel)
	}
	if diff := r.CPUPct - r.UserPct - r.SystemPct; diff > 1e-9 || diff < -1e-9 {
		t.Errorf("CPUPct %.3f != user %.3f + system %.3f", r.CPUPct, r.UserPct, r.SystemPct)
	}
	if r.RSSBytes < 1<<20 || r.VSZBytes < r.RSSBytes {
		t.Errorf("RSS %d, VSZ %d: want RSS ≥ 1 MiB and VSZ ≥ RSS", r.RSSBytes, r.VSZBytes)
	}
	if r.MemPct <= 0 || r.MemPct >= 100 {
		t.Errorf("MemPct = %v, want within (0, 100)", r.MemPct)
	}
	if r.Threads < 1 || r.Processes != 1 || r.Exited {
		t.Errorf("Threads %d, Processes %d, Exited %v: want ≥1, 1, false", r.Threads, r.Processes, r.Exited)
	}
	if r.MinorFaultsPerSec < 0 || r.MajorFaultsPerSec < 0 {
		t.Errorf("fault rates %v/%v, want ≥ 0", r.MinorFaultsPerSec, r.MajorFaultsPerSec)
	}
}

func TestProcessReportsExit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		reap bool // false leaves a zombie until the sampler has seen it
	}{
		{"reaped", true},
		{"zombie", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startChild(t, "", 0.1, time.Minute, tt.reap)
			s, err := NewProcess([]int32{c.pid()}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r := sampleAfter(t, s, 200*time.Millisecond); r.Exited || r.Processes != 1 {
				t.Fatalf("before exit: Exited %v, Processes %d", r.Exited, r.Processes)
			}
			if err := c.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			if tt.reap {
				<-c.done
			}
			r := pollExited(t, s)
			if r.Processes != 0 || !r.NoCPU || r.RSSBytes != 0 {
				t.Errorf("after exit: Processes %d, NoCPU %v, RSS %d; want 0, true, 0", r.Processes, r.NoCPU, r.RSSBytes)
			}
			// Exit of a process chosen by pid stays reported.
			if r := sampleAfter(t, s, 0); !r.Exited {
				t.Error("Exited not kept on the next reading")
			}
		})
	}
}

// pollExited samples until the sampler reports the exit, for at most five
// seconds (a killed process takes a moment to go).
func pollExited(t *testing.T, s Sampler) Reading {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := sampleAfter(t, s, 50*time.Millisecond)
		if r.Exited {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatal("exit not reported within 5s")
		}
	}
}

func TestProcessByName(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("vlspin%06d", rand.IntN(1e6))
	a := startChild(t, name, 0.2, time.Minute, true)
	startChild(t, name, 0.2, time.Minute, true)
	s, err := NewProcess(nil, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Source(); got != "process:"+name {
		t.Errorf("Source = %q", got)
	}
	r := sampleAfter(t, s, time.Second)
	if r.Processes != 2 || r.Exited {
		t.Fatalf("Processes %d, Exited %v; want both burners", r.Processes, r.Exited)
	}
	if r.NoCPU || r.CPUPct <= 0 || r.CPUPct > 80 {
		t.Errorf("CPUPct = %.1f, want a positive figure up to 80 for two 20%% burners", r.CPUPct)
	}
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-a.done
	r = sampleAfter(t, s, 0)
	if !r.Exited || r.Processes != 1 {
		t.Errorf("after one exit: Exited %v, Processes %d; want true, 1", r.Exited, r.Processes)
	}
	// A process started later is found by the next scan.
	late := startChild(t, name, 0.1, time.Minute, true)
	waitfor.Until(t, 10*time.Second, "the new process under its name", func() bool {
		p, err := process.NewProcess(int32(late.cmd.Process.Pid))
		if err != nil {
			return false
		}
		n, err := p.Name()
		return err == nil && n != "" && strings.HasPrefix(name, n)
	})
	r, err = s.Sample(context.Background(), time.Now().Add(rescanEvery))
	if err != nil {
		t.Fatal(err)
	}
	if r.Processes != 2 || r.Exited {
		t.Errorf("after a new start: Processes %d, Exited %v; want 2, false", r.Processes, r.Exited)
	}
}

// A name longer than the kernel's 15-character comm still matches: the
// rest comes from the command line.
func TestProcessByLongName(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("vesload-long-spin-%06d", rand.IntN(1e6))
	c := startChild(t, name, 0.1, time.Minute, true) // Start returns once exec is done
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", c.pid()))
	if err != nil {
		t.Skipf("no procfs: %v", err)
	}
	if got := strings.TrimSpace(string(comm)); got != name[:commLen] {
		t.Fatalf("the kernel's comm is %q, want the cut name %q", got, name[:commLen])
	}
	s, err := NewProcess(nil, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	if r := sampleAfter(t, s, 100*time.Millisecond); r.Processes != 1 || r.RSSBytes <= 0 {
		t.Errorf("Processes %d, RSS %d; want the one burner", r.Processes, r.RSSBytes)
	}
}

func TestNewProcessRejects(t *testing.T) {
	t.Parallel()
	gone := startChild(t, "", 0, time.Minute, true)
	_ = gone.cmd.Process.Kill()
	<-gone.done
	tests := []struct {
		name  string
		pids  []int32
		names []string
		want  string
	}{
		{"nothing", nil, nil, "no pid and no process name"},
		{"bad pid", []int32{-3}, nil, "not a process id"},
		{"exited pid", []int32{gone.pid()}, nil, fmt.Sprintf("target pid %d: no such process", gone.pid())},
		{"unknown name", nil, []string{"no-such-vl-proc"}, `"no-such-vl-proc": no running process`},
		{"one name missing", []int32{int32(os.Getpid())}, []string{"no-such-vl-proc"}, "no running process"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewProcess(tt.pids, tt.names)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewProcess error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSelf(t *testing.T) {
	t.Parallel()
	s, err := NewSelf()
	if err != nil {
		t.Fatal(err)
	}
	if s.Source() != "self" {
		t.Errorf("Source = %q, want self", s.Source())
	}
	spinUntil := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(spinUntil) {
	}
	r, err := s.Sample(context.Background(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r.NoCPU || r.CPUPct <= 0 || r.CPUPct > 1000 {
		t.Errorf("CPUPct = %.1f (NoCPU %v), want a positive figure after spinning", r.CPUPct, r.NoCPU)
	}
	if r.RSSBytes < 1<<20 || r.VSZBytes < r.RSSBytes || r.Threads < 1 || r.Processes != 1 {
		t.Errorf("RSS %d, VSZ %d, Threads %d, Processes %d", r.RSSBytes, r.VSZBytes, r.Threads, r.Processes)
	}
	// A reading at the same instant as the previous one has no CPU figure
	// rather than a division by zero.
	same := time.Now()
	if _, err := s.Sample(context.Background(), same); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Sample(context.Background(), same); !r.NoCPU || r.CPUPct != 0 {
		t.Errorf("zero interval: CPUPct %v, NoCPU %v; want 0, true", r.CPUPct, r.NoCPU)
	}
}

// The generator's own CPU is exact over a few milliseconds, such as a
// run's last, partial second: counted in 10 ms clock ticks, 3 ms of
// spinning reads as 0 % or as 333 % and more. Not parallel, so that no
// other test spends this process's CPU meanwhile; a few tries, since the
// machine may take the core away for a whole try.
func TestSelfCPUIsExactOverMilliseconds(t *testing.T) {
	s, err := NewSelf()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got []float64
	for range 5 {
		from := time.Now()
		if _, err := s.Sample(ctx, from); err != nil {
			t.Fatal(err)
		}
		for time.Since(from) < 3*time.Millisecond {
		}
		r, err := s.Sample(ctx, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if r.CPUPct > 10 && r.CPUPct < 200 { // a busy machine may take the core for part of a try
			return
		}
		got = append(got, r.CPUPct)
	}
	t.Errorf("CPU over 3 ms of spinning: %.0f %%, want near 100 %% (a clock tick's rounding shows 0 or over 300)", got)
}

// cpuTicks reads a process's user plus system time, in clock ticks, from
// /proc/<pid>/stat without going through the code under test.
func cpuTicks(t *testing.T, pid int32) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no procfs: %v", err)
	}
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("parse /proc/%d/stat: %v %v", pid, err1, err2)
	}
	return utime + stime
}

func BenchmarkSelfSample(b *testing.B) {
	s, err := NewSelf()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second)
		if _, err := s.Sample(ctx, now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProcessSample(b *testing.B) {
	s, err := NewProcess([]int32{int32(os.Getpid())}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second)
		if _, err := s.Sample(ctx, now); err != nil {
			b.Fatal(err)
		}
	}
}

// A search by name never finds vesload itself: --target-process vesload
// against `vesload serve` must sample the emulator, not the generator.
func TestProcessByNameSkipsSelf(t *testing.T) {
	t.Parallel()
	self := int32(os.Getpid())
	name, err := systemProcs().name(context.Background(), self)
	if err != nil {
		t.Fatal(err)
	}
	s := newProcessSampler(systemProcs(), nil, []string{name}, self)
	if err := s.scan(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.tracked[self]; ok {
		t.Errorf("the sampler of process %q tracks its own pid %d", name, self)
	}
	// The same scan without the exclusion finds it: the test can fail.
	s = newProcessSampler(systemProcs(), nil, []string{name}, 0)
	if err := s.scan(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.tracked[self]; !ok {
		t.Errorf("without the exclusion the scan does not find pid %d named %q", self, name)
	}
}

// commLen is how much of a process name the Linux kernel keeps in comm.
const commLen = 15
