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
)

// initStat is a real /proc/1/stat line.
const initStat = "1 (process_api) S 0 0 0 0 -1 4194560 127662 433539544 0 48349 1103 4148 1142703 316309 10 -10 14 0 23 42913792 2660 18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

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

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		want statFields
		err  string
	}{
		{"init", initStat, statFields{comm: "process_api", state: 'S', minflt: 127662, majflt: 0, utime: 1103, stime: 4148, threads: 14, starttime: 23, vsize: 42913792, rss: 2660}, ""},
		{"comm with spaces and parentheses", fakeStat{comm: "a) (b c) ) d", state: 'R', minflt: 5, majflt: 6, utime: 7, stime: 8, threads: 9, start: 10, vsize: 11, rssPgs: 12}.line(42),
			statFields{comm: "a) (b c) ) d", state: 'R', minflt: 5, majflt: 6, utime: 7, stime: 8, threads: 9, starttime: 10, vsize: 11, rss: 12}, ""},
		{"zombie", "77 (defunct) Z 1 77 77 0 -1 4228172 0 0 0 0 3 1 0 0 20 0 1 0 1234 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
			statFields{comm: "defunct", state: 'Z', utime: 3, stime: 1, threads: 1, starttime: 1234}, ""},
		{"empty", "", statFields{}, "no (comm)"},
		{"no parentheses", "1 init S 0 0", statFields{}, "no (comm)"},
		{"closing before opening", "1 )init( S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", statFields{}, "no (comm)"},
		{"cut short", "1 (x) S 0 0 0 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 1 0 9 100", statFields{}, "21 fields after the comm"},
		{"state too long", strings.Replace(initStat, ") S ", ") SS ", 1), statFields{}, "not one letter"},
		{"utime not a number", strings.Replace(initStat, " 1103 ", " 11x3 ", 1), statFields{}, "stat field 14"},
		{"negative rss", strings.Replace(initStat, " 2660 ", " -2660 ", 1), statFields{}, "stat field 24"},
		{"negative threads", strings.Replace(initStat, " 14 0 23 ", " -14 0 23 ", 1), statFields{}, "stat field 20"},
		{"counter overflows 64 bits", strings.Replace(initStat, " 127662 ", " 18446744073709551616 ", 1), statFields{}, "stat field 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseStat([]byte(tt.line))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseStat error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("parseStat =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestStatFieldsConvert(t *testing.T) {
	t.Parallel()
	f := statFields{state: 'S', minflt: 3, majflt: 4, utime: 250, stime: 50, threads: 7, starttime: 99, vsize: 1 << 30, rss: 256}
	got := f.procStat(100, 4096)
	want := procStat{user: 2.5, system: 0.5, minor: 3, major: 4, rss: 1 << 20, vms: 1 << 30, threads: 7, start: 99}
	if got != want {
		t.Errorf("procStat = %+v, want %+v", got, want)
	}
	if got.zombie() {
		t.Error("a sleeping process with memory is not a zombie")
	}
	for _, state := range []byte{'Z', 'X'} {
		f.state = state
		if st := f.procStat(100, 4096); !st.zombie() {
			t.Errorf("state %c: not taken for exited", state)
		}
	}
}

func TestParseComm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, err string
	}{
		{"java\n", "java", ""},
		{"a) (b c) ) d\n", "a) (b c) ) d", ""},
		{"dcae-ves-collec\n", "dcae-ves-collec", ""},
		{"\n", "", "0 bytes"},
		{"", "", "no final newline"},
		{"java", "", "no final newline"},
		{"sixteen-chars-xx\n", "", "16 bytes"},
	}
	for _, tt := range tests {
		got, err := parseComm([]byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseComm(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseComm(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestCmdlineName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"/usr/lib/jvm/bin/java\x00-jar\x00/opt/app/ves.jar\x00", "java"},
		{"dcae-ves-collector\x00--port\x008080\x00", "dcae-ves-collector"},
		{"./vesload\x00serve\x00", "vesload"},
		{"nginx: worker process\x00\x00\x00", "nginx: worker process"},
		{"", ""},
		{"\x00", ""},
		{"/\x00", "/"},
	}
	for _, tt := range tests {
		if got := cmdlineName([]byte(tt.in)); got != tt.want {
			t.Errorf("cmdlineName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

const meminfo = "MemTotal:       24683584 kB\nMemFree:        21989004 kB\nMemAvailable:   24200564 kB\nBuffers:          123456 kB\n"

func TestParseMemTotal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     uint64
		err      string
	}{
		{"real", meminfo, 24683584 << 10, ""},
		{"not first, no final newline", "MemFree: 1 kB\nMemTotal: 2048 kB", 2 << 20, ""},
		{"missing", "MemFree: 1 kB\n", 0, "no MemTotal"},
		{"empty", "", 0, "no MemTotal"},
		{"no unit", "MemTotal: 2048\n", 0, "want a number of kB"},
		{"other unit", "MemTotal: 2 MB\n", 0, "want a number of kB"},
		{"not a number", "MemTotal: lots kB\n", 0, `"lots"`},
		{"zero", "MemTotal: 0 kB\n", 0, `"0"`},
		{"overflows bytes", "MemTotal: 18446744073709551615 kB\n", 0, "MemTotal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseMemTotal([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseMemTotal error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("parseMemTotal = %d, %v; want %d", got, err, tt.want)
			}
		})
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
		{"unknown pid", []int32{7}, nil, "target pid 7"},
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
