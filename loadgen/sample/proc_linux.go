package sample

import (
	"os"

	"golang.org/x/sys/unix"
)

// atClkTck is the auxiliary vector entry holding USER_HZ
// (include/uapi/linux/auxvec.h), where the C library's sysconf(_SC_CLK_TCK)
// finds it too.
const atClkTck = 17

// userHZ is the clock tick of the CPU times in /proc when the auxiliary
// vector does not say: 100 on every Linux architecture Go supports.
const userHZ = 100

// systemProcs reads the processes of this machine from /proc.
func systemProcs() procReader { return procRoot() }

// procRoot is this machine's /proc.
func procRoot() procFS {
	return procFS{root: "/proc", ticks: clockTicks(), pageSize: uint64(os.Getpagesize())}
}

// clockTicks is USER_HZ as the kernel handed it to this process at exec,
// read without cgo (the binary is built with CGO_ENABLED=0).
func clockTicks() float64 {
	auxv, err := unix.Auxv()
	if err != nil {
		return userHZ
	}
	for _, kv := range auxv {
		if kv[0] == atClkTck && kv[1] > 0 {
			return float64(kv[1])
		}
	}
	return userHZ
}
