package sample

import (
	"context"
	"fmt"

	"github.com/shirou/gopsutil/v4/process"
)

// procStat is what one reading takes of one process.
type procStat struct {
	user, system float64 // CPU seconds
	minor, major uint64  // page faults since the process started
	rss, vms     uint64  // bytes
	threads      int32
}

// zombie reports a process that has exited but was not yet reaped by its
// parent: the kernel keeps its entry but it owns no memory any more.
func (st procStat) zombie() bool {
	return st.rss == 0 && st.vms == 0
}

// readProc reads one process's counters through gopsutil.
func readProc(ctx context.Context, p *process.Process) (procStat, error) {
	times, err := p.TimesWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("cpu times: %w", err)
	}
	faults, err := p.PageFaultsWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("page faults: %w", err)
	}
	mi, err := p.MemoryInfoWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("memory: %w", err)
	}
	threads, err := p.NumThreadsWithContext(ctx)
	if err != nil {
		return procStat{}, fmt.Errorf("threads: %w", err)
	}
	return procStat{
		user:    times.User,
		system:  times.System,
		minor:   faults.MinorFaults,
		major:   faults.MajorFaults,
		rss:     mi.RSS,
		vms:     mi.VMS,
		threads: threads,
	}, nil
}
