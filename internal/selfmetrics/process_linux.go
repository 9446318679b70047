package selfmetrics

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/vesload/vesload/internal/promtext"
)

// userHZ is the unit of the CPU times in /proc/self/stat: the kernel
// reports them in USER_HZ, 100 on every Linux architecture Go supports.
const userHZ = 100

// writeProcess writes the process_* series from /proc/self. A file that
// cannot be read leaves its series out rather than publishing a zero.
func writeProcess(w *promtext.Writer) {
	if st, ok := readStat(); ok {
		w.Header("process_cpu_seconds_total", promtext.Counter, "Total user and system CPU time spent in seconds.")
		w.Sample("process_cpu_seconds_total", nil, float64(st.utime+st.stime)/userHZ)
		w.Header("process_virtual_memory_bytes", promtext.Gauge, "Virtual memory size in bytes.")
		w.Sample("process_virtual_memory_bytes", nil, float64(st.vsize))
		w.Header("process_resident_memory_bytes", promtext.Gauge, "Resident memory size in bytes.")
		w.Sample("process_resident_memory_bytes", nil, float64(st.rss*uint64(os.Getpagesize())))
		if boot, ok := bootTime(); ok {
			w.Header("process_start_time_seconds", promtext.Gauge, "Start time of the process since unix epoch in seconds.")
			w.Sample("process_start_time_seconds", nil, boot+float64(st.starttime)/userHZ)
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		w.Header("process_open_fds", promtext.Gauge, "Number of open file descriptors.")
		w.Sample("process_open_fds", nil, float64(len(fds)))
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		w.Header("process_max_fds", promtext.Gauge, "Maximum number of open file descriptors.")
		w.Sample("process_max_fds", nil, float64(lim.Cur))
	}
}

// stat holds the fields of /proc/self/stat that the series need.
type stat struct {
	utime, stime, starttime, vsize, rss uint64
}

// readStat reads /proc/self/stat; see proc(5) for the field numbers.
func readStat() (stat, bool) {
	raw, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return stat{}, false
	}
	return parseStat(raw)
}

// parseStat reads the fields after the command name, which is in
// parentheses and may itself hold blanks and parentheses.
func parseStat(raw []byte) (stat, bool) {
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(string(raw[i+1:])) // f[0] is field 3, the state
	const first = 3
	field := func(n int) (uint64, bool) {
		if n-first >= len(f) {
			return 0, false
		}
		v, err := strconv.ParseUint(f[n-first], 10, 64)
		return v, err == nil
	}
	var st stat
	var ok [5]bool
	st.utime, ok[0] = field(14)
	st.stime, ok[1] = field(15)
	st.starttime, ok[2] = field(22)
	st.vsize, ok[3] = field(23)
	st.rss, ok[4] = field(24)
	return st, ok == [5]bool{true, true, true, true, true}
}

// bootTime reads the btime line of /proc/stat: the boot time in seconds
// since the epoch, to which a process' start time is relative.
func bootTime() (float64, bool) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, found := strings.CutPrefix(line, "btime "); found {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return float64(n), err == nil
		}
	}
	return 0, false
}
