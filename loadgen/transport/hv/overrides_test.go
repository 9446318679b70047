package hv

import (
	"strings"
	"testing"
	"time"
)

func ptr[T any](v T) *T { return &v }

func TestConfigApply(t *testing.T) {
	t.Parallel()
	base := Config{Producers: 2, Messages: 1000, Size: 8192, Interval: 10 * time.Millisecond}
	tests := []struct {
		name string
		o    Overrides
		want Config
		err  string
	}{
		{name: "nothing given", want: base},
		{name: "counts", o: Overrides{Producers: ptr(6), Messages: ptr(7), Size: ptr(512), Interval: ptr(time.Second)},
			want: Config{Producers: 6, Messages: 7, Size: 512, Interval: time.Second}},
		{name: "a total rate over the producers", o: Overrides{Producers: ptr(4), Rate: ptr(400.0)},
			want: Config{Producers: 4, Messages: 1000, Size: 8192, Interval: 10 * time.Millisecond}},
		{name: "a rate over the configured producers", o: Overrides{Rate: ptr(20.0)},
			want: Config{Producers: 2, Messages: 1000, Size: 8192, Interval: 100 * time.Millisecond}},
		{name: "a duration instead of messages", o: Overrides{Duration: ptr(time.Minute), Interval: ptr(100 * time.Millisecond)},
			want: Config{Producers: 2, Messages: 600, Size: 8192, Interval: 100 * time.Millisecond}},
		{name: "a very long duration", o: Overrides{Duration: ptr(time.Duration(1 << 62)), Interval: ptr(time.Nanosecond)},
			want: Config{Producers: 2, Messages: 1<<31 - 1, Size: 8192, Interval: time.Nanosecond}},
		{name: "rate and interval", o: Overrides{Rate: ptr(1.0), Interval: ptr(time.Second)}, err: "--rate and --interval: give only one"},
		{name: "no rate", o: Overrides{Rate: ptr(0.0)}, err: "--rate: rate 0 with 2 producers"},
		{name: "duration and messages", o: Overrides{Duration: ptr(time.Second), Messages: ptr(1)}, err: "--duration and --messages"},
		{name: "no duration", o: Overrides{Duration: ptr(time.Duration(0))}, err: "--duration: want a positive duration, got 0s"},
	}
	for _, tt := range tests {
		c := base
		err := c.Apply(tt.o)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case c.Producers != tt.want.Producers || c.Messages != tt.want.Messages || c.Size != tt.want.Size || c.Interval != tt.want.Interval:
			t.Errorf("%s: %+v, want %+v", tt.name, c, tt.want)
		}
	}
}

func TestConfigLabels(t *testing.T) {
	t.Parallel()
	label := Config{Producers: 3}.Labels()
	for seq, want := range map[int64]string{0: "vesload-hv-0", 2: "vesload-hv-2", 3: "vesload-hv-0", 3001: "vesload-hv-1"} {
		if got := label(seq); got != want {
			t.Errorf("label(%d) = %q, want %q", seq, got, want)
		}
	}
}
