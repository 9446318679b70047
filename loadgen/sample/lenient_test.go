package sample

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestMetricsReadsWhatPrometheusReads scrapes a target whose exposition
// Prometheus accepts though it is not written the canonical way (two
// spaces after # TYPE, a Latin-1 byte in a HELP text), in every format a
// target may answer with, while its CPU counter grows 0.5 s a second:
// every scrape succeeds and the target is sampled at 50 % CPU.
func TestMetricsReadsWhatPrometheusReads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, contentType, body string
	}{
		{"text, two spaces after TYPE, Latin-1 in HELP", "text/plain; version=0.0.4; charset=utf-8",
			"# HELP process_cpu_seconds_total Total CPU time, caf\xe9 included.\n# TYPE  process_cpu_seconds_total counter\n" +
				"process_cpu_seconds_total %s\n# HELP process_resident_memory_bytes Resident memory.\n" +
				"# TYPE process_resident_memory_bytes  gauge\nprocess_resident_memory_bytes 4096\n"},
		{"text without a Content-Type", "",
			"process_cpu_seconds_total %s\nprocess_resident_memory_bytes 4096\n"},
		{"OpenMetrics", "application/openmetrics-text; version=1.0.0; charset=utf-8",
			"# TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total %s\n" +
				"# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 4096\n# EOF\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var scrapes atomic.Int64
			srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				} else {
					w.Header()["Content-Type"] = nil
				}
				cpu := 100 + 0.5*float64(scrapes.Add(1)-1) // one scrape a second
				fmt.Fprintf(w, tt.body, fmt.Sprint(cpu))
			})
			s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			agg := NewAggregate(s.Source())
			start := time.Unix(1000, 0)
			for i := range 5 {
				if _, err := agg.Take(context.Background(), s, start.Add(time.Duration(i)*time.Second)); err != nil {
					t.Fatalf("scrape %d: %v", i, err)
				}
			}
			tg := agg.Target()
			if tg.SampleErrors != 0 || !near(tg.CPUAvgPct, 50) || tg.RSSMaxBytes != 4096 {
				t.Errorf("CPU avg %.2f %%, RSS %d, %d scrape errors; want 50 %%, 4096, none", tg.CPUAvgPct, tg.RSSMaxBytes, tg.SampleErrors)
			}
		})
	}
}

// TestMetricsSlowTarget: a target slower than the timeout costs one
// failed scrape with the reason, not a stalled run.
func TestMetricsSlowTarget(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	_, err = s.Sample(context.Background(), time.Now())
	if err == nil || !strings.Contains(err.Error(), "Timeout") {
		t.Errorf("Sample error = %v, want the client's timeout", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the scrape took %v, want it cut at the timeout", took)
	}
}

// TestMetricsHugeBody: a body past MaxExposition is refused with the
// reason. It is not parallel: reading 16 MiB under the race detector
// would slow the package's timed tests.
func TestMetricsHugeBody(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		line := strings.Repeat("x", 1<<20) + "\n"
		for range MaxExposition>>20 + 1 {
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	})
	s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sample(context.Background(), time.Now()); err == nil || !strings.Contains(err.Error(), "body larger than") {
		t.Errorf("Sample error = %v, want the size limit", err)
	}
}
