package sample

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// selfSampler samples vesload's own process cheaply enough to run every
// second beside the load: one getrusage call (CPU to the microsecond, page
// faults) and one read of /proc/self/stat (memory, threads).
type selfSampler struct {
	mu       sync.Mutex
	proc     procFS
	path     string // /proc/self/stat
	memTotal uint64
	prev     syscall.Rusage
	prevAt   time.Time
}

// NewSelf samples vesload's own process, so that every report can say
// whether the generator or the target was the bottleneck. It is primed
// here: the first Sample already has a CPU figure.
func NewSelf() (Sampler, error) {
	p := procRoot()
	s := &selfSampler{proc: p, path: filepath.Join(p.root, "self", "stat")}
	if _, err := p.statFile(s.path); err != nil {
		return nil, fmt.Errorf("self sampler: %w", err)
	}
	if total, err := p.memTotal(context.Background()); err == nil {
		s.memTotal = total
	}
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &s.prev); err != nil {
		return nil, fmt.Errorf("self sampler: getrusage: %w", err)
	}
	s.prevAt = time.Now()
	return s, nil
}

// Source implements Sampler.
func (s *selfSampler) Source() string { return "self" }

// Series implements Sampler.
func (s *selfSampler) Series() []string { return nil }

// Sample implements Sampler.
func (s *selfSampler) Sample(_ context.Context, now time.Time) (Reading, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Reading{NoCPU: true}, fmt.Errorf("self sampler: getrusage: %w", err)
	}
	st, err := s.proc.statFile(s.path)
	if err != nil {
		return Reading{NoCPU: true}, fmt.Errorf("self sampler: %w", err)
	}
	r := Reading{
		RSSBytes:  int64(st.rss),
		VSZBytes:  int64(st.vms),
		Threads:   st.threads,
		Processes: 1,
		NoCPU:     true,
	}
	if s.memTotal > 0 {
		r.MemPct = float64(r.RSSBytes) / float64(s.memTotal) * 100
	}
	if dt := now.Sub(s.prevAt).Seconds(); dt > 0 {
		r.UserPct = seconds(ru.Utime, s.prev.Utime) / dt * 100
		r.SystemPct = seconds(ru.Stime, s.prev.Stime) / dt * 100
		r.CPUPct = r.UserPct + r.SystemPct
		r.MinorFaultsPerSec = float64(ru.Minflt-s.prev.Minflt) / dt
		r.MajorFaultsPerSec = float64(ru.Majflt-s.prev.Majflt) / dt
		r.NoCPU = false
	}
	s.prev, s.prevAt = ru, now
	return r, nil
}

// seconds is the CPU time between two getrusage readings.
func seconds(now, before syscall.Timeval) float64 {
	return float64(now.Nano()-before.Nano()) / 1e9
}
