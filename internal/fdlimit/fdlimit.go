// Package fdlimit fits a connection pool into the process's open-file
// limit. Past the limit, connections fail at random with "too many open
// files"; a smaller pool that holds is better, and the note says what was
// done and how to avoid it. It exists so that the rule and its wording
// are one tested piece, apart from the command line that applies it.
package fdlimit

import "fmt"

// Reserve is the file descriptors kept for everything but connections:
// result and report files, samplers, the metrics listener, the runtime.
const Reserve = 64

// FitPool fits pool into this process's open-file limit (Open): a
// connection costs one descriptor, two when servedHere (the built-in
// emulator answers it in this process). An unchanged pool, or no limit to
// respect, returns an empty note.
func FitPool(pool int, servedHere bool) (int, string) {
	limit, ok := Open()
	if !ok {
		return pool, ""
	}
	return ClampPool(pool, servedHere, limit)
}

// ClampPool is FitPool under a given limit.
func ClampPool(pool int, servedHere bool, limit int) (int, string) {
	perConn := 1
	if servedHere {
		perConn = 2
	}
	most := max((limit-Reserve)/perConn, 1)
	if pool <= most {
		return pool, ""
	}
	return most, fmt.Sprintf("--pool %d is more than the open-file limit of %d allows: pool clamped to %d connections (raise the limit with ulimit -n)",
		pool, limit, most)
}
