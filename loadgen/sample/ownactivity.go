package sample

import (
	"fmt"
	"syscall"
	"time"
)

// ownActivity reads this process's CPU seconds, in user and system mode,
// and its page faults from getrusage: the kernel keeps the CPU times to
// the microsecond, where the per-process file gopsutil reads for them
// counts whole clock ticks (10 ms on most systems). A tick is a second's
// worth of rounding in a reading a few milliseconds long, such as a run's
// last, partial second or a run shorter than one tick; with getrusage the
// generator's CPU average holds for those too.
func ownActivity() (procStat, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return procStat{}, fmt.Errorf("getrusage: %w", err)
	}
	return procStat{
		at:     time.Now(),
		user:   float64(ru.Utime.Nano()) / 1e9,
		system: float64(ru.Stime.Nano()) / 1e9,
		minor:  uint64(max(ru.Minflt, 0)),
		major:  uint64(max(ru.Majflt, 0)),
	}, nil
}
