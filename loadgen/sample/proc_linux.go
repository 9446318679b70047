package sample

import (
	"os"

	"github.com/vesload/vesload/internal/proc"
)

// systemProcs reads the processes of this machine from /proc.
func systemProcs() procReader { return procRoot() }

// procRoot is this machine's /proc.
func procRoot() procFS {
	return procFS{root: "/proc", ticks: proc.ClockTicks(), pageSize: uint64(os.Getpagesize())}
}
