package sample

import "syscall"

// ownCPU reads the CPU seconds this process has used, in user and system
// mode, from getrusage: the kernel keeps them to the microsecond, where
// the per-process files gopsutil reads count whole clock ticks (10 ms on
// most systems). A tick is a second's worth of rounding in a reading a
// few milliseconds long, such as a run's last, partial second or a run
// shorter than one tick; with getrusage the generator's CPU average holds
// for those too.
func ownCPU() (user, system float64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	return seconds(ru.Utime), seconds(ru.Stime), true
}

func seconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
