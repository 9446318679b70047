package profiles

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBuiltinsParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		kind     string
		total    int64
		duration time.Duration
	}{
		{"ves-6-steps", KindStages, 28750, 15 * time.Minute},
		{"ves-50rps-10m", KindConstant, 30000, 10 * time.Minute},
		{"ves-100rps-10m", KindConstant, 60000, 10 * time.Minute},
		{"ves-burst-1k", KindConstant, 1000, time.Second},
		{"ves-burst-2k", KindConstant, 2000, time.Second},
		{"ves-burst-3k", KindConstant, 3000, time.Second},
		{"ves-burst-4k", KindConstant, 4000, time.Second},
		{"ves-burst-5k", KindConstant, 5000, time.Second},
		{"hv-producers-8k", KindProducers, 360000, 10 * time.Minute},
		{"hv-2x90000-8k", KindProducers, 180000, 15 * time.Minute},
		{"hv-4x90000-8k", KindProducers, 360000, 15 * time.Minute},
		{"hv-6x60000-8k", KindProducers, 360000, 10 * time.Minute},
		{"hv-nodmaap-2x90000-8k", KindProducers, 180000, 15 * time.Minute},
		{"hv-nodmaap-4x90000-8k", KindProducers, 360000, 15 * time.Minute},
		{"hv-nodmaap-6x90000-8k", KindProducers, 540000, 15 * time.Minute},
		{"hv-nodmaap-8x90000-8k", KindProducers, 720000, 15 * time.Minute},
		{"hv-nodmaap-10x90000-8k", KindProducers, 900000, 15 * time.Minute},
		{"hv-nodmaap-12x90000-8k", KindProducers, 1080000, 15 * time.Minute},
		{"hv-nodmaap-14x90000-8k", KindProducers, 1260000, 15 * time.Minute},
		{"ingress-concurrency-ramp", KindClosed, 0, 5 * time.Minute},
	}
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
		if b.Description == "" || strings.Contains(b.Description, "invalid") {
			t.Errorf("built-in %s: description %q", b.Name, b.Description)
		}
	}
	want := []string{"hv-2x90000-8k", "hv-4x90000-8k", "hv-6x60000-8k", "hv-nodmaap-2x90000-8k", "hv-nodmaap-4x90000-8k",
		"hv-nodmaap-6x90000-8k", "hv-nodmaap-8x90000-8k", "hv-nodmaap-10x90000-8k", "hv-nodmaap-12x90000-8k",
		"hv-nodmaap-14x90000-8k", "hv-producers-8k", "ingress-concurrency-ramp", "ves-6-steps", "ves-50rps-10m", "ves-100rps-10m",
		"ves-burst-1k", "ves-burst-2k", "ves-burst-3k", "ves-burst-4k", "ves-burst-5k"}
	if !slices.Equal(names, want) {
		t.Errorf("Builtins() = %v, want %v", names, want)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Load(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tt.name || p.Source != "builtin:"+tt.name {
				t.Errorf("name %q source %q", p.Name, p.Source)
			}
			if p.Target.URL != "" {
				t.Errorf("built-in has target URL %q, want none (the emulator)", p.Target.URL)
			}
			if k := p.Load.Kind(); k != tt.kind {
				t.Errorf("kind = %q, want %q", k, tt.kind)
			}
			if n := p.Load.TotalRequests(); n != tt.total {
				t.Errorf("TotalRequests = %d, want %d", n, tt.total)
			}
			if d := p.Load.TotalDuration(); d != tt.duration {
				t.Errorf("TotalDuration = %v, want %v", d, tt.duration)
			}
		})
	}
}

func TestBuiltinComparisonPlans(t *testing.T) {
	t.Parallel()
	p, err := Load("ves-100rps-10m")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Thresholds, "error_rate<1%") || !slices.Contains(p.Thresholds, "p99<500ms") {
		t.Errorf("thresholds = %v", p.Thresholds)
	}
	short, err := p.Load.WithDuration(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := short.TotalRequests(); n != 1000 {
		t.Errorf("ves-100rps-10m shortened to 10s schedules %d requests, want 1000", n)
	}
	p, err = Load("hv-producers-8k")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Requests[0].Size; got != 8192 {
		t.Errorf("hv-producers-8k message size = %d, want 8192", got)
	}
}

func TestBuiltinYAMLUnknown(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "nope", "../profile", "builtin/ves-6-steps.yaml"} {
		if _, err := BuiltinYAML(name); err == nil {
			t.Errorf("BuiltinYAML(%q) succeeded, want an error", name)
		}
	}
	data, err := BuiltinYAML("ves-burst-3k")
	if err != nil || !strings.Contains(string(data), "2_test_scenario_3k_rps") {
		t.Errorf("BuiltinYAML(ves-burst-3k) = %q, %v", data, err)
	}
}

func TestNaturalCompare(t *testing.T) {
	t.Parallel()
	in := []string{"b10", "a", "b9", "ves-100rps", "ves-50rps", "b009x", "b09"}
	slices.SortFunc(in, naturalCompare)
	want := []string{"a", "b9", "b09", "b009x", "b10", "ves-50rps", "ves-100rps"}
	if !slices.Equal(in, want) {
		t.Errorf("sorted %v, want %v", in, want)
	}
}
