// Package selfmetrics writes the go_* and process_* series that Prometheus
// client libraries publish about their own process, under the same names
// and meanings, so that dashboards and scrapers (vesload's own
// --target-metrics among them) read vesload and its emulators as they read
// any Go service. It reads the runtime and /proc/self at scrape time only.
package selfmetrics

import (
	"runtime"

	"github.com/vesload/vesload/internal/promtext"
)

// Write appends the runtime and process families to w.
func Write(w *promtext.Writer) {
	writeRuntime(w)
	writeProcess(w)
}

func writeRuntime(w *promtext.Writer) {
	threads, _ := runtime.ThreadCreateProfile(nil)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w.Single("go_goroutines", promtext.Gauge, "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	w.Single("go_threads", promtext.Gauge, "Number of OS threads created.", float64(threads))
	w.Header("go_info", promtext.Gauge, "Information about the Go environment.")
	w.Sample("go_info", []promtext.Label{{Name: "version", Value: runtime.Version()}}, 1)
	w.Single("go_memstats_alloc_bytes", promtext.Gauge, "Number of bytes allocated in heap and currently in use.", float64(ms.HeapAlloc))
	w.Header("go_memstats_alloc_bytes_total", promtext.Counter, "Total number of bytes allocated in heap until now, even if released already.")
	w.Count("go_memstats_alloc_bytes_total", nil, ms.TotalAlloc)
	w.Single("go_memstats_heap_inuse_bytes", promtext.Gauge, "Number of heap bytes that are in use.", float64(ms.HeapInuse))
	w.Single("go_memstats_sys_bytes", promtext.Gauge, "Number of bytes obtained from system.", float64(ms.Sys))
	w.Single("go_memstats_next_gc_bytes", promtext.Gauge, "Number of heap bytes when next garbage collection will take place.", float64(ms.NextGC))
	w.Header("go_gc_cycles_total", promtext.Counter, "Count of completed GC cycles.")
	w.Count("go_gc_cycles_total", nil, uint64(ms.NumGC))
	w.Single("go_gc_pause_seconds_total", promtext.Counter, "Total time the world was stopped for garbage collection.", float64(ms.PauseTotalNs)/1e9)
}
