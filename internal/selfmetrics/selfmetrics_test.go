package selfmetrics

import (
	"os"
	"runtime"
	"testing"

	"github.com/vesload/vesload/internal/promtext"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	burnCPU(t)
	var w promtext.Writer
	Write(&w)
	samples, err := promtext.Parse(w.Bytes(), promtext.Text)
	if err != nil {
		t.Fatalf("%v\n%s", err, w.Bytes())
	}
	got := map[string]float64{}
	for _, s := range samples {
		got[s.Name] = s.Value
	}
	want := []string{"go_goroutines", "go_threads", "go_memstats_alloc_bytes", "go_info"}
	if runtime.GOOS == "linux" {
		want = append(want, "process_cpu_seconds_total", "process_resident_memory_bytes",
			"process_virtual_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds")
	}
	for _, name := range want {
		if v, ok := got[name]; !ok || v <= 0 {
			t.Errorf("%s = %v (present %v), want a positive value", name, v, ok)
		}
	}
	if runtime.GOOS == "linux" {
		if rss := got["process_resident_memory_bytes"]; rss < 1<<20 || rss > 1<<34 {
			t.Errorf("resident memory %v bytes: not a plausible figure", rss)
		}
		if vsz := got["process_virtual_memory_bytes"]; vsz < got["process_resident_memory_bytes"] {
			t.Errorf("virtual memory %v below resident %v", vsz, got["process_resident_memory_bytes"])
		}
		st, err := os.Stat("/proc/self")
		if err == nil {
			start := got["process_start_time_seconds"]
			if diff := start - float64(st.ModTime().Unix()); diff < -120 || diff > 120 {
				t.Errorf("start time %v is %v s away from /proc/self's %v", start, diff, st.ModTime())
			}
		}
	}
}
