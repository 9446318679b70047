//go:build unix

package hv

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system: the
// benchmarks' per-message cost on a shared machine, where wall-clock time
// depends on what else runs.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
