package sample

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/process"
)

// gopsutilProcs reads processes through gopsutil, on every system alike.
type gopsutilProcs struct{}

// systemProcs reads the processes of this machine through gopsutil.
func systemProcs() procReader { return gopsutilProcs{} }

// pids implements procReader.
func (gopsutilProcs) pids(ctx context.Context) ([]int32, error) {
	return process.PidsWithContext(ctx)
}

// stat implements procReader. A fresh handle for each reading reads the
// process's creation time anew, which tells a reused pid.
func (gopsutilProcs) stat(ctx context.Context, pid int32) (procStat, error) {
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return procStat{}, err
	}
	st, err := counters(ctx, p)
	if err != nil {
		return procStat{}, err
	}
	if created, err := p.CreateTimeWithContext(ctx); err == nil && created > 0 {
		st.start = uint64(created)
	}
	if status, err := p.StatusWithContext(ctx); err == nil {
		st.dead = slices.Contains(status, process.Zombie)
	}
	return st, nil
}

// counters reads what changes from one reading to the next: CPU times,
// page faults, memory and threads.
func counters(ctx context.Context, p *process.Process) (procStat, error) {
	times, err := p.TimesWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("cpu times: %w", err)
	}
	at := time.Now()
	faults, err := p.PageFaultsWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("page faults: %w", err)
	}
	st := procStat{user: times.User, system: times.System, minor: faults.MinorFaults, major: faults.MajorFaults, at: at}
	return st, footprint(ctx, p, &st)
}

// footprint reads a process's threads and memory into st.
func footprint(ctx context.Context, p *process.Process, st *procStat) error {
	threads, err := p.NumThreadsWithContext(ctx)
	if err != nil {
		return fmt.Errorf("threads: %w", err)
	}
	st.threads = threads
	// Where gopsutil has the extended memory figures (Linux: one read of
	// statm), they hold RSS and VMS too; elsewhere the basic ones do, and
	// the anonymous share is unknown.
	if ex, err := p.MemoryInfoExWithContext(ctx); err == nil {
		st.rss, st.vms = ex.RSS, ex.VMS
		if ex.RSS >= ex.Shared {
			st.anon = ex.RSS - ex.Shared
		}
		return nil
	}
	mi, err := p.MemoryInfoWithContext(ctx)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	st.rss, st.vms = mi.RSS, mi.VMS
	return nil
}

// ownProcs reads processes as gopsutilProcs does, and vesload's own one
// through a handle kept for the whole run: a process reading itself is
// alive, neither a zombie nor a pid reused by another, so its readings
// (one a second) skip what tells those apart, the existence check, the
// creation time and the state, half the files of a reading. Its CPU
// times and page faults come from getrusage (ownActivity), its CPU times
// exact to the microsecond.
type ownProcs struct {
	gopsutilProcs
	self  *process.Process
	start uint64
}

// newOwnProcs opens the handle of process self (vesload's own pid).
func newOwnProcs(ctx context.Context, self int32) (*ownProcs, error) {
	p, err := process.NewProcessWithContext(ctx, self)
	if err != nil {
		return nil, err
	}
	o := &ownProcs{self: p}
	if created, err := p.CreateTimeWithContext(ctx); err == nil && created > 0 {
		o.start = uint64(created)
	}
	return o, nil
}

// stat implements procReader.
func (o *ownProcs) stat(ctx context.Context, pid int32) (procStat, error) {
	if pid != o.self.Pid {
		return o.gopsutilProcs.stat(ctx, pid)
	}
	st, err := ownActivity()
	if err != nil {
		return procStat{}, err
	}
	if err := footprint(ctx, o.self, &st); err != nil {
		return procStat{}, err
	}
	st.start = o.start
	return st, nil
}

// name implements procReader.
func (gopsutilProcs) name(ctx context.Context, pid int32) (string, error) {
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return "", err
	}
	return p.NameWithContext(ctx)
}

// gone implements procReader.
func (gopsutilProcs) gone(ctx context.Context, pid int32) bool {
	exists, err := process.PidExistsWithContext(ctx, pid)
	return err == nil && !exists
}

// memTotal implements procReader.
func (gopsutilProcs) memTotal(ctx context.Context) (uint64, error) {
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return 0, err
	}
	return vm.Total, nil
}
