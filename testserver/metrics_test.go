package testserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func TestMetrics(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := startWithHooks(t, Options{PublishTime: time.Hour, BackendPool: 1, BackendQueue: -1},
		hooks{publish: func(quit <-chan struct{}) {
			select {
			case <-release:
			case <-quit:
			}
		}})
	held := make(chan int, 1)
	go func() { held <- post(t, s, "/eventListener/v7", event7("m1")).status }()
	waitFor(t, "one publish", func() bool { return s.Stats().BackendInUse == 1 })
	post(t, s, "/eventListener/v7", event7("m2")) // queue full: 500
	post(t, s, "/eventListener/v7", event7("m1")) // duplicate id, then queue full
	post(t, s, "/eventListener/v7", `{"evnt":1}`) // invalid
	close(release)
	if c := <-held; c != 202 {
		t.Fatalf("held request: %d", c)
	}

	resp, err := testClient().Get(s.URL() + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics status %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	value := func(name string, labels ...string) float64 {
		t.Helper()
		f := families[name]
		if f == nil {
			t.Fatalf("metric %s missing", name)
		}
		for _, m := range f.GetMetric() {
			if hasLabels(m, labels...) {
				switch {
				case m.GetCounter() != nil:
					return m.GetCounter().GetValue()
				case m.GetGauge() != nil:
					return m.GetGauge().GetValue()
				}
			}
		}
		t.Fatalf("metric %s%v missing", name, labels)
		return 0
	}
	checks := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"ves_emulator_requests_total", []string{"code", "202"}, 1},
		{"ves_emulator_requests_total", []string{"code", "500"}, 2},
		{"ves_emulator_requests_total", []string{"code", "400"}, 1},
		{"ves_emulator_events_total", nil, 3},
		{"ves_emulator_accepted_events_total", nil, 1},
		{"ves_emulator_duplicate_event_ids_total", nil, 1},
		{"ves_emulator_backend_rejected_total", nil, 2},
		{"ves_emulator_invalid_requests_total", nil, 1},
		{"ves_emulator_in_flight", nil, 0},
		{"ves_emulator_backend_pool_size", nil, 1},
	}
	for _, c := range checks {
		if got := value(c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, name := range []string{"go_goroutines", "process_cpu_seconds_total", "process_resident_memory_bytes"} {
		if families[name] == nil {
			t.Errorf("runtime/process metric %s missing", name)
		}
	}
	for name := range families {
		if strings.HasPrefix(name, "promhttp_") {
			t.Errorf("metric %s from the global registry leaked in", name)
		}
	}
}

func hasLabels(m *dto.Metric, kv ...string) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == kv[i] && l.GetValue() == kv[i+1] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}
