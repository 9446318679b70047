package sample

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proc"
)

// fakeStat is the stat line the kernel would write for these figures.
type fakeStat struct {
	comm                 string
	state                byte
	minflt, majflt       uint64
	utime, stime         uint64
	threads              int64
	start, vsize, rssPgs uint64
}

func (f fakeStat) line(pid int32) string {
	return fmt.Sprintf("%d (%s) %c 1 %d %d 0 -1 4194560 %d 0 %d 0 %d %d 0 0 20 0 %d 0 %d %d %d 18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		pid, f.comm, f.state, pid, pid, f.minflt, f.majflt, f.utime, f.stime, f.threads, f.start, f.vsize, f.rssPgs)
}

// meminfo is the start of a real /proc/meminfo.
const meminfo = "MemTotal:       24683584 kB\nMemFree:        21989004 kB\nMemAvailable:   24200564 kB\nBuffers:          123456 kB\n"

func TestFromStat(t *testing.T) {
	t.Parallel()
	f := proc.Stat{State: 'S', MinFlt: 3, MajFlt: 4, UTime: 250, STime: 50, Threads: 7, StartTime: 99, VSize: 1 << 30, RSS: 256}
	got := fromStat(f, 100, 4096)
	want := procStat{user: 2.5, system: 0.5, minor: 3, major: 4, rss: 1 << 20, vms: 1 << 30, threads: 7, start: 99}
	if got != want {
		t.Errorf("procStat = %+v, want %+v", got, want)
	}
	if got.zombie() {
		t.Error("a sleeping process with memory is not a zombie")
	}
	for _, state := range []byte{'Z', 'X'} {
		f.State = state
		if st := fromStat(f, 100, 4096); !st.zombie() {
			t.Errorf("state %c: not taken for exited", state)
		}
	}
}

// fakeProc is a procfs tree in a temporary directory.
type fakeProc struct {
	t    *testing.T
	root string
}

func newFakeProc(t *testing.T) fakeProc {
	t.Helper()
	p := fakeProc{t: t, root: t.TempDir()}
	p.write("meminfo", meminfo)
	for _, dir := range []string{"self", "net", "sys"} {
		if err := os.Mkdir(filepath.Join(p.root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func (p fakeProc) fs() procFS { return procFS{root: p.root, ticks: 100, pageSize: 4096} }

func (p fakeProc) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// process writes a process's stat, comm and cmdline.
func (p fakeProc) process(pid int32, st fakeStat, cmdline string) {
	p.t.Helper()
	dir := fmt.Sprint(pid)
	p.write(dir+"/stat", st.line(pid))
	p.write(dir+"/comm", st.comm+"\n")
	p.write(dir+"/cmdline", cmdline)
}

func (p fakeProc) remove(pid int32) {
	p.t.Helper()
	if err := os.RemoveAll(filepath.Join(p.root, fmt.Sprint(pid))); err != nil {
		p.t.Fatal(err)
	}
}

func TestProcFSPidsAndNames(t *testing.T) {
	t.Parallel()
	p := newFakeProc(t)
	p.process(10, fakeStat{comm: "java", state: 'S'}, "/usr/bin/java\x00-jar\x00")
	p.process(11, fakeStat{comm: "dcae-ves-collec", state: 'S'}, "/opt/app/dcae-ves-collector\x00--port\x00")
	p.process(12, fakeStat{comm: "vescollector-ma", state: 'S'}, "/usr/bin/python3\x00main.py\x00")
	p.process(13, fakeStat{comm: "kworker/0:1-eve", state: 'I'}, "")
	p.process(14, fakeStat{comm: "a) (b c) ) d", state: 'S'}, "x\x00")
	if err := os.Mkdir(filepath.Join(p.root, "15"), 0o755); err != nil { // exited: listed, no files
		t.Fatal(err)
	}
	ctx := context.Background()
	fs := p.fs()
	pids, err := fs.pids(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pids)
	if want := []int32{10, 11, 12, 13, 14, 15}; !slices.Equal(pids, want) {
		t.Errorf("pids = %v, want %v", pids, want)
	}
	names := map[int32]string{
		10: "java",
		11: "dcae-ves-collector", // cut comm, completed from the command line
		12: "vescollector-ma",    // the command line is another program
		13: "kworker/0:1-eve",    // a kernel thread has no command line
		14: "a) (b c) ) d",
	}
	for pid, want := range names {
		if got, err := fs.name(ctx, pid); err != nil || got != want {
			t.Errorf("name(%d) = %q, %v; want %q", pid, got, err, want)
		}
	}
	if _, err := fs.name(ctx, 15); err == nil || !fs.gone(ctx, 16) || fs.gone(ctx, 15) {
		t.Errorf("exited pid 15: name error %v, gone(16) %v, gone(15) %v; want an error, true, false", err, fs.gone(ctx, 16), fs.gone(ctx, 15))
	}
	if total, err := fs.memTotal(ctx); err != nil || total != 24683584<<10 {
		t.Errorf("memTotal = %d, %v", total, err)
	}
	p.write("12/stat", "12 (vescollector-ma) S 1 2 3\n")
	if _, err := fs.stat(ctx, 12); err == nil || !strings.Contains(err.Error(), "12/stat") {
		t.Errorf("stat of a cut line: error %v, want one naming the file", err)
	}
	if _, err := (procFS{root: filepath.Join(p.root, "missing")}).pids(ctx); err == nil {
		t.Error("pids of a missing root: no error")
	}
}

// TestProcessSamplerOverFakeProc drives the sampler by name over a fixture
// tree and fake time, so every figure is exact.
func TestProcessSamplerOverFakeProc(t *testing.T) {
	t.Parallel()
	p := newFakeProc(t)
	a := fakeStat{comm: "vescollector", state: 'S', minflt: 1000, majflt: 5, utime: 300, stime: 100, threads: 40, start: 5000, vsize: 3 << 30, rssPgs: 50000}
	b := fakeStat{comm: "vescollector", state: 'S', minflt: 10, utime: 20, stime: 10, threads: 2, start: 6000, vsize: 1 << 30, rssPgs: 1000}
	p.process(100, a, "/opt/vescollector\x00")
	p.process(101, b, "/opt/vescollector\x00")
	p.process(102, fakeStat{comm: "bash", state: 'S', vsize: 1, rssPgs: 1}, "bash\x00")
	p.process(103, fakeStat{comm: "vescollector", state: 'S', vsize: 1, rssPgs: 1}, "") // vesload itself
	if err := os.Mkdir(filepath.Join(p.root, "104"), 0o755); err != nil {               // exits between listing and reading
		t.Fatal(err)
	}
	ctx := context.Background()
	t0 := time.Unix(1_700_000_000, 0)
	s := newProcessSampler(p.fs(), nil, []string{"vescollector"}, 103)
	if err := s.start(ctx, nil, t0); err != nil {
		t.Fatal(err)
	}

	// One second on: a burnt 0.5 s user + 0.1 s system, b 1.0 s user.
	a.utime, a.stime, a.minflt, a.majflt = 350, 110, 1300, 6
	b.utime = 120
	p.process(100, a, "/opt/vescollector\x00")
	p.process(101, b, "/opt/vescollector\x00")
	r, err := s.Sample(ctx, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	want := Reading{
		CPUPct: 160, UserPct: 150, SystemPct: 10,
		RSSBytes: 51000 * 4096, VSZBytes: 4 << 30,
		MemPct:            float64(51000*4096) / float64(24683584<<10) * 100,
		MinorFaultsPerSec: 300, MajorFaultsPerSec: 1,
		Threads: 42, Processes: 2,
	}
	if !closeReadings(r, want) {
		t.Errorf("reading =\n %+v\nwant\n %+v", r, want)
	}

	// b becomes a zombie: it is dropped and the exit reported.
	b.state, b.vsize, b.rssPgs = 'Z', 0, 0
	p.process(101, b, "")
	r, err = s.Sample(ctx, t0.Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exited || r.Processes != 1 || r.RSSBytes != 50000*4096 || r.NoCPU || r.CPUPct != 0 {
		t.Errorf("after a zombie: %+v; want Exited, one process of 50000 pages, an idle CPU", r)
	}

	// a's pid is taken by a new process of the same name: the old one
	// has exited, and the new one is found by the next scan, not mistaken
	// for the old one (its counters start afresh).
	a.start, a.utime, a.stime = 9000, 1, 0
	p.process(100, a, "/opt/vescollector\x00")
	p.remove(101)
	r, err = s.Sample(ctx, t0.Add(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exited || r.Processes != 0 || !r.NoCPU {
		t.Errorf("after pid reuse: %+v; want Exited, no process, no CPU", r)
	}
	r, err = s.Sample(ctx, t0.Add(3*time.Second+rescanEvery))
	if err != nil {
		t.Fatal(err)
	}
	if r.Exited || r.Processes != 1 || !r.NoCPU {
		t.Errorf("after the rescan: %+v; want the new process, not yet primed", r)
	}
}

func TestProcessSamplerOverFakeProcRejects(t *testing.T) {
	t.Parallel()
	p := newFakeProc(t)
	p.process(100, fakeStat{comm: "java", state: 'S', vsize: 1, rssPgs: 1}, "java\x00")
	tests := []struct {
		name  string
		pids  []int32
		names []string
		want  string
	}{
		{"unknown pid", []int32{7}, nil, "target pid 7: no such process"},
		{"name of another process", nil, []string{"python3"}, `"python3": no running process`},
		{"pid and a missing name", []int32{100}, []string{"python3"}, "no running process"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newProcessSampler(p.fs(), tt.pids, tt.names, 1)
			err := s.start(context.Background(), tt.pids, time.Unix(0, 0))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("start error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	// A process chosen by pid satisfies its name too.
	s := newProcessSampler(p.fs(), []int32{100}, []string{"java"}, 1)
	if err := s.start(context.Background(), []int32{100}, time.Unix(0, 0)); err != nil {
		t.Errorf("pid 100 named java: %v", err)
	}
}

// closeReadings compares readings, allowing float rounding.
func closeReadings(a, b Reading) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return near(a.CPUPct, b.CPUPct) && near(a.UserPct, b.UserPct) && near(a.SystemPct, b.SystemPct) &&
		near(a.MemPct, b.MemPct) && near(a.MinorFaultsPerSec, b.MinorFaultsPerSec) &&
		near(a.MajorFaultsPerSec, b.MajorFaultsPerSec) && a.NoCPU == b.NoCPU &&
		a.RSSBytes == b.RSSBytes && a.VSZBytes == b.VSZBytes && a.Threads == b.Threads &&
		a.Processes == b.Processes && a.Exited == b.Exited && a.Extra == nil
}
