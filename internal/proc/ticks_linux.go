package proc

import "golang.org/x/sys/unix"

// atClkTck is the auxiliary vector entry holding USER_HZ
// (include/uapi/linux/auxvec.h), where the C library's sysconf(_SC_CLK_TCK)
// finds it too.
const atClkTck = 17

// ClockTicks is USER_HZ, the unit of the CPU times in /proc, as the kernel
// handed it to this process at exec in the auxiliary vector: read without
// cgo (the binary is built with CGO_ENABLED=0), UserHZ when absent.
func ClockTicks() float64 {
	auxv, err := unix.Auxv()
	if err != nil {
		return UserHZ
	}
	for _, kv := range auxv {
		if kv[0] == atClkTck && kv[1] > 0 {
			return float64(kv[1])
		}
	}
	return UserHZ
}
