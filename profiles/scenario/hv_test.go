package scenario

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/hv"
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
