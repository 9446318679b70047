package sample

import (
	"context"
	"fmt"
	"slices"

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

// stat implements procReader.
func (gopsutilProcs) stat(ctx context.Context, pid int32) (procStat, error) {
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return procStat{}, err
	}
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
	st := procStat{
		user:    times.User,
		system:  times.System,
		minor:   faults.MinorFaults,
		major:   faults.MajorFaults,
		rss:     mi.RSS,
		vms:     mi.VMS,
		threads: threads,
	}
	if created, err := p.CreateTimeWithContext(ctx); err == nil && created > 0 {
		st.start = uint64(created)
	}
	if status, err := p.StatusWithContext(ctx); err == nil {
		st.dead = slices.Contains(status, process.Zombie)
	}
	if ex, err := p.MemoryInfoExWithContext(ctx); err == nil && ex.RSS >= ex.Shared {
		st.anon = ex.RSS - ex.Shared
	}
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
