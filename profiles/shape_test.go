package profiles

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestShapeOpen(t *testing.T) {
	t.Parallel()
	ramp := &Ramp{From: 100, To: 1000, Over: 150 * time.Second}
	tests := []struct {
		name   string
		shape  Shape
		kind   string
		segs   []Segment
		open   bool
		total  int64
		length time.Duration
	}{
		{"constant", Shape{RPS: 100, Duration: 10 * time.Minute}, KindConstant,
			[]Segment{{From: 100, To: 100, Duration: 10 * time.Minute}}, true, 60000, 10 * time.Minute},
		{"constant by count", Shape{Requests: 3000, Duration: time.Second}, KindConstant,
			[]Segment{{From: 3000, To: 3000, Duration: time.Second}}, true, 3000, time.Second},
		{"ramp", Shape{Ramp: ramp}, KindRamp,
			[]Segment{{From: 100, To: 1000, Duration: 150 * time.Second}}, true, 82500, 150 * time.Second},
		{"ramp then stage", Shape{Stages: []Stage{{Ramp: ramp}, {RPS: 1000, Duration: time.Minute}}}, KindStages,
			[]Segment{{From: 100, To: 1000, Duration: 150 * time.Second}, {From: 1000, To: 1000, Duration: time.Minute}}, true, 142500, 210 * time.Second},
		{"fractional rate floors", Shape{Stages: []Stage{{RPS: 6.67, Duration: 150 * time.Second}}}, KindStages,
			[]Segment{{From: 6.67, To: 6.67, Duration: 150 * time.Second}}, true, 1000, 150 * time.Second},
		{"closed", Shape{Closed: &Closed{Concurrency: []int{100, 200}, Step: 30 * time.Second}}, KindClosed,
			nil, false, 0, time.Minute},
		{"producers", Shape{Producers: &Producers{Count: 6, Messages: 60000, Interval: 10 * time.Millisecond}}, KindProducers,
			nil, false, 360000, 10 * time.Minute},
		{"empty", Shape{}, "", nil, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			segs, ok := tt.shape.Open()
			if ok != tt.open || !reflect.DeepEqual(segs, tt.segs) {
				t.Errorf("Open() = %v, %v; want %v, %v", segs, ok, tt.segs, tt.open)
			}
			if got := tt.shape.Kind(); got != tt.kind {
				t.Errorf("Kind() = %q, want %q", got, tt.kind)
			}
			if got := tt.shape.TotalRequests(); got != tt.total {
				t.Errorf("TotalRequests() = %d, want %d", got, tt.total)
			}
			if got := tt.shape.TotalDuration(); got != tt.length {
				t.Errorf("TotalDuration() = %v, want %v", got, tt.length)
			}
		})
	}
}

func TestShapeValidate(t *testing.T) {
	t.Parallel()
	sec := time.Second
	tests := []struct {
		name  string
		shape Shape
		path  string // "" when valid
	}{
		{"empty is left to the command line", Shape{}, ""},
		{"constant", Shape{RPS: 1, Duration: sec}, ""},
		{"two shapes", Shape{RPS: 1, Duration: sec, Ramp: &Ramp{To: 1, Over: sec}}, "load"},
		{"rate without duration", Shape{RPS: 10}, "load.duration"},
		{"duration without rate", Shape{Duration: sec}, "load.rps"},
		{"rps and requests", Shape{RPS: 1, Requests: 2, Duration: sec}, "load"},
		{"negative rps", Shape{RPS: -1, Duration: sec}, "load.rps"},
		{"absurd rps", Shape{RPS: 1e9, Duration: sec}, "load.rps"},
		{"fewer than one request", Shape{RPS: 0.5, Duration: sec}, "load"},
		{"ramp without over", Shape{Ramp: &Ramp{From: 1, To: 2}}, "load.ramp.over"},
		{"ramp below zero", Shape{Ramp: &Ramp{From: -1, To: 2, Over: sec}}, "load.ramp.from"},
		{"ramp stage with duration", Shape{Stages: []Stage{{Ramp: &Ramp{To: 5, Over: sec}, Duration: sec}}}, "load.stages[0]"},
		{"pause stage is fine", Shape{Stages: []Stage{{Duration: sec}, {RPS: 5, Duration: sec}}}, ""},
		{"only pauses", Shape{Stages: []Stage{{Duration: sec}}}, "load"},
		{"stage without duration", Shape{Stages: []Stage{{RPS: 5}}}, "load.stages[0].duration"},
		{"closed without levels", Shape{Closed: &Closed{Step: sec}}, "load.closed.concurrency"},
		{"closed zero level", Shape{Closed: &Closed{Concurrency: []int{1, 0}, Step: sec}}, "load.closed.concurrency[1]"},
		{"closed without step", Shape{Closed: &Closed{Concurrency: []int{1}}}, "load.closed.step"},
		{"producers without interval", Shape{Producers: &Producers{Count: 1, Messages: 1}}, "load.producers.interval"},
		{"producers without count", Shape{Producers: &Producers{Messages: 1, Interval: sec}}, "load.producers.count"},
		{"too long", Shape{RPS: 1, Duration: 400 * 24 * time.Hour}, "load.duration"},
		{"too many requests", Shape{RPS: 1e7, Duration: 300 * 24 * time.Hour}, "load"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.shape.validate()
			var fe *FieldError
			switch {
			case tt.path == "" && err != nil:
				t.Errorf("validate() = %v, want nil", err)
			case tt.path != "" && !errors.As(err, &fe):
				t.Errorf("validate() = %v, want a FieldError at %s", err, tt.path)
			case tt.path != "" && fe.Path != tt.path:
				t.Errorf("validate() error at %q (%v), want %q", fe.Path, err, tt.path)
			}
		})
	}
}

func TestShapeWithDuration(t *testing.T) {
	t.Parallel()
	sec := time.Second
	tests := []struct {
		name  string
		shape Shape
		d     time.Duration
		want  Shape
		total int64
	}{
		{"constant keeps the rate", Shape{RPS: 100, Duration: 10 * time.Minute}, 10 * sec,
			Shape{RPS: 100, Duration: 10 * sec}, 1000},
		{"constant by count keeps the rate", Shape{Requests: 1000, Duration: 100 * sec}, 10 * sec,
			Shape{RPS: 10, Duration: 10 * sec}, 100},
		{"ramp", Shape{Ramp: &Ramp{From: 100, To: 1000, Over: 150 * sec}}, 10 * sec,
			Shape{Ramp: &Ramp{From: 100, To: 1000, Over: 10 * sec}}, 5500},
		{"stages scale in proportion", Shape{Stages: []Stage{{Requests: 1500, Duration: 150 * sec}, {Ramp: &Ramp{From: 10, To: 20, Over: 50 * sec}}}}, 20 * sec,
			Shape{Stages: []Stage{{RPS: 10, Duration: 15 * sec}, {Ramp: &Ramp{From: 10, To: 20, Over: 5 * sec}}}}, 225},
		{"closed steps share it", Shape{Closed: &Closed{Concurrency: []int{1, 2, 3, 4}, Step: 30 * sec}}, 8 * sec,
			Shape{Closed: &Closed{Concurrency: []int{1, 2, 3, 4}, Step: 2 * sec}}, 0},
		{"producers send fewer messages", Shape{Producers: &Producers{Count: 6, Messages: 60000, Interval: 10 * time.Millisecond}}, 5 * sec,
			Shape{Producers: &Producers{Count: 6, Messages: 500, Interval: 10 * time.Millisecond}}, 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.shape.WithDuration(tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("WithDuration(%v) = %+v, want %+v", tt.d, got, tt.want)
			}
			if n := got.TotalRequests(); n != tt.total {
				t.Errorf("TotalRequests() = %d, want %d", n, tt.total)
			}
		})
	}
	if _, err := (Shape{}).WithDuration(sec); err == nil {
		t.Error("WithDuration on an empty shape: want an error")
	}
	if _, err := (Shape{RPS: 1, Duration: sec}).WithDuration(0); err == nil {
		t.Error("WithDuration(0): want an error")
	}
}
