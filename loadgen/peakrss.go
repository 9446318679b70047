package loadgen

import (
	"bytes"
	"os"
	"strconv"
)

// procPeakRSS reads VmHWM, the peak resident set of this process image,
// from /proc/self/status. getrusage's ru_maxrss is not enough on Linux: it
// survives execve, so a vesload started by a large parent (a CI runner, a
// test binary) would report the parent's peak as its own. ok is false
// where /proc is not available.
func procPeakRSS() (n int64, ok bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parsePeakRSS(data)
}

// parsePeakRSS finds "VmHWM:   12345 kB" in a /proc status file.
func parsePeakRSS(status []byte) (int64, bool) {
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, found := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !found {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || kb < 0 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}
