package sample

import (
	"math"
	"testing"
	"time"
)

// contentTypes are the answers a fuzzed endpoint may give.
var contentTypes = []string{
	"text/plain; version=0.0.4; charset=utf-8",
	"application/openmetrics-text; version=1.0.0; charset=utf-8",
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited",
	"",
	"application/json",
}

// FuzzExposition feeds arbitrary bodies through parsing and interpretation
// twice, a second apart, as two scrapes would be. Whatever the input, it
// must not panic, and a reading it accepts must hold only finite,
// non-negative figures, with no CPU claimed when NoCPU is set.
func FuzzExposition(f *testing.F) {
	f.Add(uint8(0), []byte(micrometer))
	f.Add(uint8(0), []byte("process_cpu_seconds_total 12.5\nprocess_resident_memory_bytes 1e9\n"))
	f.Add(uint8(1), []byte("# TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total 3\n# EOF\n"))
	f.Add(uint8(0), []byte("process_cpu_usage NaN\nsystem_cpu_count +Inf\njvm_memory_used_bytes -1\n"))
	f.Add(uint8(0), []byte("process_cpu_usage 1e308\nsystem_cpu_count 1e308\njvm_memory_used_bytes{a=\"1\"} 1e308\njvm_memory_used_bytes{a=\"2\"} 1e308\n"))
	f.Add(uint8(2), []byte("\x05\x0a\x03abc"))
	f.Add(uint8(3), []byte("process_threads 1e12\n"))
	f.Fuzz(func(t *testing.T, ct uint8, body []byte) {
		fams, err := parseExposition(contentTypes[int(ct)%len(contentTypes)], body)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error text")
			}
			return
		}
		s := &metricsSampler{used: make(map[string]struct{})}
		now := time.Unix(1000, 0)
		for i := range 2 {
			r, _ := s.interpret(fams, now.Add(time.Duration(i)*time.Second))
			checkReading(t, r)
		}
	})
}

// checkReading fails on figures a reading must never hold.
func checkReading(t *testing.T, r Reading) {
	t.Helper()
	for name, v := range map[string]float64{"cpu": r.CPUPct, "user": r.UserPct, "system": r.SystemPct, "mem": r.MemPct} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("%s = %v", name, v)
		}
	}
	if r.NoCPU && r.CPUPct != 0 {
		t.Fatalf("NoCPU with CPUPct %v", r.CPUPct)
	}
	if r.RSSBytes < 0 || r.VSZBytes < 0 || r.Threads < 0 {
		t.Fatalf("negative amounts: %+v", r)
	}
	for name, v := range r.Extra {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("Extra[%s] = %v", name, v)
		}
	}
}
