package hv

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
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
		{name: "a very long duration", o: Overrides{Duration: ptr(engine.MaxDuration), Interval: ptr(time.Nanosecond)},
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

// TestScheduleBounds holds HV-VES's schedules to the limits a REST run has
// (engine.MaxDuration) and its producers to theirs: each case of a
// schedule that panicked, ran out of memory or ran for another length than
// asked is refused by Apply or CheckSchedule, naming the flag.
func TestScheduleBounds(t *testing.T) {
	t.Parallel()
	base := Config{Producers: 2, Messages: 1000, Size: 8192, Interval: 10 * time.Millisecond}
	tests := []struct {
		name string
		o    Overrides
		err  string // "" accepts
	}{
		{"an hour-long interval", Overrides{Producers: ptr(1), Messages: ptr(5), Interval: ptr(time.Hour)}, ""},
		{"a schedule of the longest run", Overrides{Producers: ptr(1), Messages: ptr(2), Interval: ptr(engine.MaxDuration)}, ""},
		{"the longest duration", Overrides{Duration: ptr(engine.MaxDuration), Interval: ptr(time.Hour)}, ""},
		{"the most producers", Overrides{Producers: ptr(MaxProducers), Size: ptr(1024)}, ""},
		{"an interval of a million hours (makeslice panic)", Overrides{Producers: ptr(1), Messages: ptr(5), Interval: ptr(1000000 * time.Hour)}, "--interval 1000000h: longer than 8784h"},
		{"two messages a million hours apart (out of memory)", Overrides{Producers: ptr(1), Messages: ptr(2), Interval: ptr(1000000 * time.Hour)}, "--interval 1000000h: longer than 8784h"},
		{"three messages 10,000h apart (838 MB)", Overrides{Messages: ptr(3), Interval: ptr(10000 * time.Hour)}, "--interval 10000h: longer than 8784h"},
		{"messages past the longest run", Overrides{Messages: ptr(3), Interval: ptr(5000 * time.Hour)}, "--messages 3 every 5000h0m0s: the run would last 10000h, longer than 8784h"},
		{"a rate of 1e-9 (1.45 GB)", Overrides{Rate: ptr(1e-9)}, "--rate: rate 1e-09/s over 2 producers: each would send once every 555556h, longer than 8784h"},
		{"a rate below a float's duration", Overrides{Rate: ptr(1e-300)}, "longer than 8784h"},
		{"100,000,000 producers (1.9 GB)", Overrides{Producers: ptr(100_000_000)}, "--producers: want 1 to 100000, got 100000000"},
		{"a duration of a million hours (ran 5965h)", Overrides{Duration: ptr(1000000 * time.Hour)}, "--duration 1000000h: longer than 8784h"},
		{"producers of 1 MiB messages past the buffers", Overrides{Producers: ptr(1000), Size: ptr(1 << 20)}, "--producers 1000 of --size 1048576: 1000 MiB of message buffers in one generator, more than 256 MiB"},
	}
	for _, tt := range tests {
		c := base
		err := c.Apply(tt.o)
		if err == nil {
			err = c.CheckSchedule()
		}
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
	}
}

// TestWrittenSecondsFollowTheRunNotTheSchedule: the seconds of the
// longest schedule cost a few hundred kilobytes before the run, where
// they cost 8 bytes each (250 MB), and a write makes only its chunk.
func TestWrittenSecondsFollowTheRunNotTheSchedule(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w := newWrittenSeconds(2 * engine.MaxDuration)
	start := time.Unix(1000, 0)
	w.add(start, start.Add(90*time.Minute), 5)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("the longest schedule's seconds took %d KiB: want under 1 MiB", alloc>>10)
	}
	got := w.seconds()
	if len(got) != 90*60+1 || got[90*60] != 5 {
		t.Errorf("%d seconds, want 5 bytes in the 5,401st", len(got))
	}
}
