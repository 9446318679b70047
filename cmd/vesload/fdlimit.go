package main

import "fmt"

// fdReserve is the file descriptors kept for everything but connections:
// result and report files, samplers, the metrics listener, the runtime.
const fdReserve = 64

// clampPool fits a pool into the open-file limit: a connection costs one
// descriptor, two when the built-in emulator serves it in this process.
// Past the limit, connections fail at random with "too many open files";
// a smaller pool that holds is better, and the note says what was done
// and how to avoid it. An unchanged pool returns an empty note.
func clampPool(pool int, emulated bool, limit int) (int, string) {
	perConn := 1
	if emulated {
		perConn = 2
	}
	most := max((limit-fdReserve)/perConn, 1)
	if pool <= most {
		return pool, ""
	}
	return most, fmt.Sprintf("--pool %d is more than the open-file limit of %d allows: pool clamped to %d connections (raise the limit with ulimit -n)",
		pool, limit, most)
}
