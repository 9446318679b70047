//go:build unix

package fdlimit

import "syscall"

// Open returns the process's open-file limit, which Go raises to the
// hard limit at start-up; ok is false when there is none to respect.
func Open() (limit int, ok bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 { // also RLIM_INFINITY
		return 0, false
	}
	return int(rl.Cur), true
}
