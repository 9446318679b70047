//go:build linux

package sample

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/process"
)

// TestProcFSAgreesWithGopsutil reads the same processes through procFS
// and through gopsutil, which the Linux samplers used before: names,
// counters and memory must agree, so reports did not change meaning.
func TestProcFSAgreesWithGopsutil(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fs := procRoot()
	c := startChild(t, "vl-idle-with-a-long-name", 0, time.Minute, true)

	ours := settled(t, fs, c.pid())
	p, err := process.NewProcessWithContext(ctx, c.pid())
	if err != nil {
		t.Fatal(err)
	}
	times, err1 := p.TimesWithContext(ctx)
	faults, err2 := p.PageFaultsWithContext(ctx)
	mi, err3 := p.MemoryInfoWithContext(ctx)
	threads, err4 := p.NumThreadsWithContext(ctx)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		t.Fatal(err1, err2, err3, err4)
	}
	// The idle child may still run a little between the two reads.
	if math.Abs(ours.user-times.User) > 0.05 || math.Abs(ours.system-times.System) > 0.05 {
		t.Errorf("cpu user/system %.2f/%.2f, gopsutil %.2f/%.2f", ours.user, ours.system, times.User, times.System)
	}
	if d := int64(ours.minor) - int64(faults.MinorFaults); d < -50 || d > 50 || ours.major != faults.MajorFaults {
		t.Errorf("faults %d/%d, gopsutil %d/%d", ours.minor, ours.major, faults.MinorFaults, faults.MajorFaults)
	}
	if d := float64(ours.rss) - float64(mi.RSS); math.Abs(d) > 0.05*float64(mi.RSS) || ours.vms != mi.VMS {
		t.Errorf("rss/vms %d/%d, gopsutil %d/%d", ours.rss, ours.vms, mi.RSS, mi.VMS)
	}
	if ours.threads != threads {
		t.Errorf("threads %d, gopsutil %d", ours.threads, threads)
	}

	total, err := fs.memTotal(ctx)
	vm, err2 := mem.VirtualMemoryWithContext(ctx)
	if err != nil || err2 != nil || total != vm.Total {
		t.Errorf("memTotal %d (%v), gopsutil %d (%v)", total, err, vm.Total, err2)
	}

	// Every process's name, the long-named child's included.
	pids, err := fs.pids(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, pid := range pids {
		ourName, err := fs.name(ctx, pid)
		if err != nil {
			continue // exited meanwhile
		}
		p, err := process.NewProcessWithContext(ctx, pid)
		if err != nil {
			continue
		}
		theirs, err := p.NameWithContext(ctx)
		if err != nil {
			continue
		}
		compared++
		if ourName != theirs {
			t.Errorf("pid %d: name %q, gopsutil %q", pid, ourName, theirs)
		}
		if pid == c.pid() && ourName != "vl-idle-with-a-long-name" {
			t.Errorf("the child's name is %q", ourName)
		}
	}
	t.Logf("names of %d processes agree", compared)
	if compared < 2 {
		t.Errorf("compared the names of %d processes, want at least this one and the child", compared)
	}
}

// settled reads pid until its memory stops changing between two reads
// 50 ms apart (a starting child maps its runtime first), for at most 5 s.
func settled(t *testing.T, fs procFS, pid int32) procStat {
	t.Helper()
	ctx := context.Background()
	prev, err := fs.stat(ctx, pid)
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		var st procStat
		if st, err = fs.stat(ctx, pid); err == nil && st.rss == prev.rss && st.vms == prev.vms {
			return st
		}
		prev = st
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Skip("the child's memory did not settle within 5s: machine too busy to compare")
	return prev
}
