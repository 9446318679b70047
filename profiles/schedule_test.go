package profiles

import (
	"slices"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// dueTime is the engine's due time of request n under segs: profiles
// describe shapes, loadgen schedules them, and these tests check that the
// two agree on every shape a profile can hold.
func dueTime(segs []Segment, n int64) (time.Duration, bool) {
	ls := make([]engine.Segment, len(segs))
	for i, g := range segs {
		ls[i] = engine.Segment{From: g.From, To: g.To, Duration: g.Duration}
	}
	s, err := engine.NewSchedule(ls...)
	if err != nil {
		return 0, false
	}
	return s.Due(n)
}

// countsPerSecond counts how many requests of the shape are due in each
// whole second of its schedule, using the due times as a fake clock would.
func countsPerSecond(t *testing.T, s Shape) []int {
	t.Helper()
	segs, ok := s.Open()
	if !ok {
		t.Fatalf("shape %+v is not open", s)
	}
	secs := int((s.TotalDuration() + time.Second - 1) / time.Second)
	counts := make([]int, secs)
	total := s.TotalRequests()
	for n := range total {
		due, ok := dueTime(segs, n)
		if !ok {
			t.Fatalf("request %d of %d has no due time", n, total)
		}
		sec := int(due / time.Second)
		if sec >= secs {
			t.Fatalf("request %d due at %v, after the end (%v)", n, due, s.TotalDuration())
		}
		counts[sec]++
	}
	return counts
}

func repeat(n, times int) []int {
	out := make([]int, times)
	for i := range out {
		out[i] = n
	}
	return out
}

func series(times int, f func(k int) int) []int {
	out := make([]int, times)
	for k := range out {
		out[k] = f(k)
	}
	return out
}

func TestDueTimeCountsPerSecond(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		shape Shape
		want  []int
	}{
		{"constant 100 rps for 10s", Shape{RPS: 100, Duration: 10 * time.Second}, repeat(100, 10)},
		{"constant 3000 rps for 1s", Shape{RPS: 3000, Duration: time.Second}, []int{3000}},
		{"constant 2.5 rps for 4s", Shape{RPS: 2.5, Duration: 4 * time.Second}, []int{3, 2, 3, 2}},
		{"requests 20 over 3s", Shape{Requests: 20, Duration: 3 * time.Second}, []int{7, 7, 6}},
		{"stages with a pause", Shape{Stages: []Stage{
			{RPS: 50, Duration: 2 * time.Second},
			{RPS: 100, Duration: time.Second},
			{Duration: time.Second},
			{Requests: 10, Duration: time.Second},
		}}, []int{50, 50, 100, 0, 10}},
		{"ramp 0 to 100 over 10s", Shape{Ramp: &Ramp{From: 0, To: 100, Over: 10 * time.Second}},
			series(10, func(k int) int { return 5 * (2*k + 1) })},
		{"ramp 100 to 1000 over 150s", Shape{Ramp: &Ramp{From: 100, To: 1000, Over: 150 * time.Second}},
			series(150, func(k int) int { return 103 + 6*k })},
		{"falling ramp 1000 to 100 over 150s", Shape{Ramp: &Ramp{From: 1000, To: 100, Over: 150 * time.Second}},
			series(150, func(k int) int { return 997 - 6*k })},
		{"ramp chained with stages", Shape{Stages: []Stage{
			{Ramp: &Ramp{From: 0, To: 100, Over: 2 * time.Second}},
			{RPS: 100, Duration: 2 * time.Second},
			{Ramp: &Ramp{From: 100, To: 0, Over: 2 * time.Second}},
		}}, []int{25, 75, 100, 100, 75, 25}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := countsPerSecond(t, tt.shape); !slices.Equal(got, tt.want) {
				t.Errorf("counts per second = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDueTimeSixSteps(t *testing.T) {
	t.Parallel()
	counts := []int64{1000, 1750, 3500, 5000, 7500, 10000}
	var s Shape
	for _, c := range counts {
		s.Stages = append(s.Stages, Stage{Requests: c, Duration: 150 * time.Second})
	}
	per := countsPerSecond(t, s)
	for i, c := range counts {
		var sum int
		for _, n := range per[i*150 : (i+1)*150] {
			sum += n
		}
		if int64(sum) != c {
			t.Errorf("stage %d: %d requests due, want %d", i, sum, c)
		}
	}
	// 1000 requests in 150 s is 6⅔ per second: 7, 7, 6, repeating.
	if got, want := per[:6], []int{7, 7, 6, 7, 7, 6}; !slices.Equal(got, want) {
		t.Errorf("first seconds = %v, want %v", got, want)
	}
}

func TestDueTimeExactTimes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		segs []Segment
		n    int64
		want time.Duration
	}{
		{"first request at zero", []Segment{{From: 100, To: 100, Duration: time.Second}}, 0, 0},
		{"constant n/R", []Segment{{From: 100, To: 100, Duration: time.Second}}, 37, 370 * time.Millisecond},
		{"constant third", []Segment{{From: 3, To: 3, Duration: time.Second}}, 1, 333333333},
		{"second segment", []Segment{{From: 10, To: 10, Duration: time.Second}, {From: 100, To: 100, Duration: time.Second}}, 15, 1050 * time.Millisecond},
		{"after pause", []Segment{{From: 10, To: 10, Duration: time.Second}, {From: 0, To: 0, Duration: time.Second}, {From: 10, To: 10, Duration: time.Second}}, 10, 2 * time.Second},
		{"ramp from zero: sqrt(2n/b)", []Segment{{From: 0, To: 100, Duration: 10 * time.Second}}, 5, time.Second},
		{"ramp 100→1000: N(10s)=1300", []Segment{{From: 100, To: 1000, Duration: 150 * time.Second}}, 1300, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := dueTime(tt.segs, tt.n)
			if !ok || got != tt.want {
				t.Errorf("dueTime(%d) = %v, %v; want %v, true", tt.n, got, ok, tt.want)
			}
		})
	}
}

func TestDueTimeBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		segs  []Segment
		total int64
	}{
		{"constant", []Segment{{From: 100, To: 100, Duration: 10 * time.Second}}, 1000},
		{"fractional total floors", []Segment{{From: 6.67, To: 6.67, Duration: 150 * time.Second}}, 1000},
		{"ramp", []Segment{{From: 100, To: 1000, Duration: 150 * time.Second}}, 82500},
		{"empty", nil, 0},
		{"only a pause", []Segment{{From: 0, To: 0, Duration: time.Second}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := totalOf(tt.segs); got != tt.total {
				t.Fatalf("total = %d, want %d", got, tt.total)
			}
			if _, ok := dueTime(tt.segs, tt.total); ok {
				t.Errorf("dueTime(total=%d) is ok, want past the end", tt.total)
			}
			if _, ok := dueTime(tt.segs, -1); ok {
				t.Error("dueTime(-1) is ok, want false")
			}
			if tt.total > 0 {
				if _, ok := dueTime(tt.segs, tt.total-1); !ok {
					t.Errorf("dueTime(total-1) is not ok")
				}
			}
		})
	}
}

func TestDueTimeMonotonic(t *testing.T) {
	t.Parallel()
	shapes := map[string][]Segment{
		"steps":        {{From: 6.67, To: 6.67, Duration: 15 * time.Second}, {From: 50, To: 50, Duration: 10 * time.Second}, {From: 11.1, To: 11.1, Duration: 7 * time.Second}},
		"ramps":        {{From: 0, To: 333, Duration: 3 * time.Second}, {From: 333, To: 7, Duration: 5 * time.Second}, {From: 7, To: 7, Duration: time.Second}, {From: 0, To: 0, Duration: time.Second}, {From: 1, To: 900, Duration: 2 * time.Second}},
		"tiny slope":   {{From: 100, To: 100.000001, Duration: 20 * time.Second}},
		"fast burst":   {{From: 5000, To: 5000, Duration: time.Second}},
		"slow fractal": {{From: 0.3, To: 0.7, Duration: 100 * time.Second}},
	}
	for name, segs := range shapes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var end time.Duration
			for _, s := range segs {
				end += s.Duration
			}
			prev := time.Duration(-1)
			total := totalOf(segs)
			for n := range total {
				due, ok := dueTime(segs, n)
				if !ok || due < prev || due > end {
					t.Fatalf("dueTime(%d) = %v, %v after %v (end %v)", n, due, ok, prev, end)
				}
				prev = due
			}
		})
	}
}
