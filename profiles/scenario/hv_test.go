package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport/hv"
	"github.com/vesload/vesload/profiles"
)

func TestHVOverrides(t *testing.T) {
	t.Parallel()
	defaults := hv.Config{Producers: 2, Messages: 1000, Size: 8192, Interval: 10 * time.Millisecond}
	tests := []struct {
		name string
		p    profiles.Profile
		want hv.Config
		err  bool
	}{
		{name: "no producers section", p: profiles.Profile{Load: profiles.Shape{RPS: 1, Duration: time.Second}}, err: true},
		{name: "every value", p: profiles.Profile{Load: profiles.Shape{Producers: &profiles.Producers{Count: 14, Messages: 90000, Interval: time.Second}},
			Requests: []profiles.Request{{Size: 4096}}}, want: hv.Config{Producers: 14, Messages: 90000, Size: 4096, Interval: time.Second}},
		{name: "the defaults stand where the profile is silent", p: profiles.Profile{Load: profiles.Shape{Producers: &profiles.Producers{Count: 3}}},
			want: hv.Config{Producers: 3, Messages: 1000, Size: 8192, Interval: 10 * time.Millisecond}},
		{name: "messages beyond an int32", p: profiles.Profile{Load: profiles.Shape{Producers: &profiles.Producers{Messages: 1 << 40}}},
			want: hv.Config{Producers: 2, Messages: 1<<31 - 1, Size: 8192, Interval: 10 * time.Millisecond}},
	}
	for _, tt := range tests {
		o, err := HVOverrides(&tt.p)
		if (err != nil) != tt.err {
			t.Fatalf("%s: error %v", tt.name, err)
		}
		if err != nil {
			continue
		}
		c := defaults
		if err := c.Apply(o); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if c != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, c, tt.want)
		}
	}
}

// The built-in HV-VES profiles all size a run.
func TestHVOverridesOfBuiltins(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"hv-producers-8k", "hv-nodmaap-14x90000-8k"} {
		p, err := profiles.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if o, err := HVOverrides(p); err != nil || o.Producers == nil || o.Messages == nil || o.Interval == nil {
			t.Errorf("%s: %+v %v", name, o, err)
		}
	}
}

// What an HV-VES run does not use is named, and a plain HV-VES profile
// names nothing.
func TestHVIgnored(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		reqs []profiles.Request
		want string
	}{
		{"sized", []profiles.Request{{Size: 8192}}, ""},
		{"the measurement HV-VES sends", []profiles.Request{{Event: "measurement", Size: 8192}}, ""},
		{"a REST event", []profiles.Request{{Event: "fault", Size: 8192}}, "requests[0] event: fault: ignored by an HV-VES run"},
		{"a body and headers", []profiles.Request{{Size: 1}, {Body: "{}", Headers: map[string]string{"X": "y"}}}, "requests[1] body, headers: ignored"},
	} {
		got := strings.Join(HVIgnored(&profiles.Profile{Requests: c.reqs}), "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	for name, want := range map[string]int{"hv-nodmaap-14x90000-8k": 0, "hv-2x90000-8k": 0,
		"hv-producers-8k": 1} { // REST runs use it too, with fault events
		p, err := profiles.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if w := HVIgnored(p); len(w) != want {
			t.Errorf("the built-in %s: %q, want %d lines", name, w, want)
		}
	}
}
