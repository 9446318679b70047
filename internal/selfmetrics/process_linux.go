package selfmetrics

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/vesload/vesload/internal/proc"
	"github.com/vesload/vesload/internal/promtext"
)

// writeProcess writes the process_* series from /proc/self. A file that
// cannot be read leaves its series out rather than publishing a zero.
func writeProcess(w *promtext.Writer) {
	if st, ok := readStat(); ok {
		hz := proc.ClockTicks()
		w.Single("process_cpu_seconds_total", promtext.Counter, "Total user and system CPU time spent in seconds.", float64(st.UTime+st.STime)/hz)
		w.Single("process_virtual_memory_bytes", promtext.Gauge, "Virtual memory size in bytes.", float64(st.VSize))
		w.Single("process_resident_memory_bytes", promtext.Gauge, "Resident memory size in bytes.", float64(st.RSS*uint64(os.Getpagesize())))
		if boot, ok := bootTime(); ok {
			w.Single("process_start_time_seconds", promtext.Gauge, "Start time of the process since unix epoch in seconds.", boot+float64(st.StartTime)/hz)
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		w.Single("process_open_fds", promtext.Gauge, "Number of open file descriptors.", float64(len(fds)))
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		w.Single("process_max_fds", promtext.Gauge, "Maximum number of open file descriptors.", float64(lim.Cur))
	}
}

// readStat reads /proc/self/stat.
func readStat() (proc.Stat, bool) {
	raw, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return proc.Stat{}, false
	}
	st, err := proc.ParseStat(raw)
	return st, err == nil
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
