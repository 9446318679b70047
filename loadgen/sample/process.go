package sample

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rescanEvery bounds how often a sampler by name lists all processes to
// find new ones (a restarted collector): listing is cheap, but not so cheap
// that it should run every second.
const rescanEvery = 5 * time.Second

// tracked is one sampled process and its counters at the previous reading.
type tracked struct {
	name   string // the name it was found by; "" when chosen by pid
	primed bool
	start  uint64 // when the process started, to notice a reused pid
	user   float64
	system float64
	minor  uint64
	major  uint64
	at     time.Time // when its CPU times were read (procStat.at)
}

// explicit reports whether the process was chosen by pid rather than
// found by name (a name found is never empty).
func (t *tracked) explicit() bool { return t.name == "" }

// processSampler sums the resources of local processes chosen by pid or
// by name.
type processSampler struct {
	mu       sync.Mutex
	procs    procReader
	source   string
	names    []string
	memTotal uint64
	tracked  map[int32]*tracked
	skip     map[int32]struct{} // pids seen and found not to match names
	self     int32              // vesload's own pid, never found by name
	lastScan time.Time
	prevAt   time.Time
	gone     bool // a process chosen by pid has exited
}

// NewProcess samples the processes with the given pids plus every process
// whose name is one of names, summed into one reading. CPU comes from the
// change of each process's CPU times between readings, so the sampler is
// primed here and the first Sample already has a CPU figure. Processes by
// name are looked for again every few seconds, so a restarted target is
// picked up. Every pid must exist and every name must match a process now,
// so that a typo fails before the run rather than yielding an empty report.
// vesload's own process is never found by name: --target-process vesload
// (a collector emulated by `vesload serve`) must not count the generator.
func NewProcess(pids []int32, names []string) (Sampler, error) {
	if len(pids) == 0 && len(names) == 0 {
		return nil, errors.New("process sampler: no pid and no process name given")
	}
	s := newProcessSampler(systemProcs(), pids, names, int32(os.Getpid()))
	if err := s.start(context.Background(), pids, time.Now()); err != nil {
		return nil, err
	}
	return s, nil
}

// start finds the processes to sample and primes them at now.
func (s *processSampler) start(ctx context.Context, pids []int32, now time.Time) error {
	if total, err := s.procs.memTotal(ctx); err == nil {
		s.memTotal = total
	}
	for _, pid := range pids {
		if err := s.addPid(ctx, pid); err != nil {
			return err
		}
	}
	if len(s.names) > 0 {
		if err := s.scan(ctx, now); err != nil {
			return err
		}
		if err := s.requireNames(ctx); err != nil {
			return err
		}
	}
	for pid, t := range s.tracked {
		if st, err := s.procs.stat(ctx, pid); err == nil {
			t.prime(st)
		}
	}
	s.prevAt = now
	return nil
}

// newProcessSampler makes a sampler that reads processes through procs and
// never finds the process self by name.
func newProcessSampler(procs procReader, pids []int32, names []string, self int32) *processSampler {
	return &processSampler{
		procs:   procs,
		source:  processSource(pids, names),
		names:   names,
		tracked: make(map[int32]*tracked),
		skip:    make(map[int32]struct{}),
		self:    self,
	}
}

// processSource renders the pids and names as "pid:1,2 process:java".
func processSource(pids []int32, names []string) string {
	var parts []string
	if len(pids) > 0 {
		ids := make([]string, len(pids))
		for i, pid := range pids {
			ids[i] = strconv.Itoa(int(pid))
		}
		parts = append(parts, "pid:"+strings.Join(ids, ","))
	}
	if len(names) > 0 {
		parts = append(parts, "process:"+strings.Join(names, ","))
	}
	return strings.Join(parts, " ")
}

// addPid starts tracking one explicitly chosen process.
func (s *processSampler) addPid(ctx context.Context, pid int32) error {
	if pid <= 0 {
		return fmt.Errorf("target pid %d: not a process id", pid)
	}
	if _, err := s.procs.stat(ctx, pid); err != nil {
		if s.procs.gone(ctx, pid) {
			return fmt.Errorf("target pid %d: no such process", pid)
		}
		return fmt.Errorf("target pid %d: %w", pid, err)
	}
	s.tracked[pid] = &tracked{}
	return nil
}

// requireNames fails when a name matched no process at all.
func (s *processSampler) requireNames(ctx context.Context) error {
	for _, name := range s.names {
		found := false
		for pid, t := range s.tracked {
			n := t.name
			if t.explicit() {
				n, _ = s.procs.name(ctx, pid)
			}
			if n == name {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("target process %q: no running process has that name (vesload's own process does not count)", name)
		}
	}
	return nil
}

// Source implements Sampler.
func (s *processSampler) Source() string { return s.source }

// Series implements Sampler: local samplers use no metric series.
func (s *processSampler) Series() []string { return nil }

// Sample implements Sampler. A process that has exited is dropped and
// reported through Reading.Exited; it is not an error.
func (s *processSampler) Sample(ctx context.Context, now time.Time) (Reading, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.names) > 0 && now.Sub(s.lastScan) >= rescanEvery {
		if err := s.scan(ctx, now); err != nil {
			return Reading{NoCPU: true}, err
		}
	}
	dt := now.Sub(s.prevAt).Seconds()
	var r Reading
	var rss uint64
	cpuKnown, vanished := false, false
	for pid, t := range s.tracked {
		st, err := s.procs.stat(ctx, pid)
		if err != nil || st.zombie() || t.reused(st) {
			if err == nil || s.procs.gone(ctx, pid) {
				delete(s.tracked, pid)
				vanished = true
				s.gone = s.gone || t.explicit()
				continue
			}
			return Reading{NoCPU: true}, fmt.Errorf("sample pid %d: %w", pid, err)
		}
		if t.add(&r, st, dt) {
			cpuKnown = true
		}
		t.prime(st)
		rss += st.rss
		r.AnonBytes += int64(st.anon)
		r.VSZBytes += int64(st.vms)
		r.Threads += st.threads
		r.Processes++
	}
	s.prevAt = now
	r.RSSBytes = int64(rss)
	r.CPUPct = r.UserPct + r.SystemPct
	r.NoCPU = !cpuKnown
	if s.memTotal > 0 {
		r.MemPct = float64(rss) / float64(s.memTotal) * 100
	}
	r.Exited = vanished || s.gone || len(s.tracked) == 0
	return r, nil
}

// add folds the change since the previous reading into r, over dt
// seconds. It reports false when there is no previous reading or the
// counters went backwards (the pid now belongs to another process).
func (t *tracked) add(r *Reading, st procStat, dt float64) bool {
	// A reading at the caller's previous instant has no figure; any
	// other is over the times' own interval, when the source knows it.
	if dt > 0 && !st.at.IsZero() && !t.at.IsZero() {
		dt = st.at.Sub(t.at).Seconds()
	}
	if !t.primed || dt <= 0 || st.user < t.user || st.system < t.system ||
		st.minor < t.minor || st.major < t.major {
		return false
	}
	r.UserPct += (st.user - t.user) / dt * 100
	r.SystemPct += (st.system - t.system) / dt * 100
	r.MinorFaultsPerSec += float64(st.minor-t.minor) / dt
	r.MajorFaultsPerSec += float64(st.major-t.major) / dt
	return true
}

// prime remembers the counters the next reading is measured against.
func (t *tracked) prime(st procStat) {
	t.user, t.system, t.minor, t.major, t.at = st.user, st.system, st.minor, st.major, st.at
	t.start = st.start
	t.primed = true
}

// reused reports that the pid now belongs to a process started after the
// one tracked: the tracked one has exited.
func (t *tracked) reused(st procStat) bool {
	return t.primed && t.start != st.start
}
