package engine

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestScheduleTotals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		segs []Segment
		want int64
		span time.Duration
	}{
		{"100rps 10m", []Segment{{100, 100, 10 * time.Minute}}, 60000, 10 * time.Minute},
		{"1000rps 10s", []Segment{{1000, 1000, 10 * time.Second}}, 10000, 10 * time.Second},
		{"fractional", []Segment{{2.5, 2.5, 3 * time.Second}}, 7, 3 * time.Second},
		{"ramp 100 to 1000 over 150s", []Segment{{100, 1000, 150 * time.Second}}, 82500, 150 * time.Second},
		{"ramp down", []Segment{{10, 0, 10 * time.Second}}, 50, 10 * time.Second},
		{"stages", []Segment{{50, 50, 10 * time.Second}, {100, 100, 5 * time.Second}}, 1000, 15 * time.Second},
		{"pause between stages", []Segment{{10, 10, time.Second}, {0, 0, time.Second}, {10, 10, time.Second}}, 20, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSchedule(tt.segs...)
			if err != nil {
				t.Fatal(err)
			}
			if s.Total() != tt.want || s.Span() != tt.span {
				t.Fatalf("total %d span %v, want %d %v", s.Total(), s.Span(), tt.want, tt.span)
			}
			if _, ok := s.Due(tt.want); ok {
				t.Fatalf("request %d is past the end but has a due time", tt.want)
			}
			last := time.Duration(-1)
			for n := int64(0); n < s.Total(); n++ {
				d, ok := s.Due(n)
				if !ok || d < last || d > s.Span() {
					t.Fatalf("request %d: due %v ok %v after %v (span %v)", n, d, ok, last, s.Span())
				}
				last = d
			}
		})
	}
}

// perSecond counts how many requests fall due in each whole second.
func perSecond(s *Schedule) []int64 {
	counts := make([]int64, int(s.Span()/time.Second)+1)
	for n := int64(0); n < s.Total(); n++ {
		d, _ := s.Due(n)
		counts[int(d/time.Second)]++
	}
	return counts
}

func TestSchedulePerSecond(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		segs []Segment
		want []int64
	}{
		{"constant", []Segment{{100, 100, 3 * time.Second}}, []int64{100, 100, 100, 0}},
		{"stages", []Segment{{5, 5, 2 * time.Second}, {20, 20, time.Second}}, []int64{5, 5, 20, 0}},
		// Rate 0→20 over 2 s: N(t) = 5t², so 5 arrivals in the first second, 15 in the second.
		{"ramp", []Segment{{0, 20, 2 * time.Second}}, []int64{5, 15, 0}},
		{"ramp then stage", []Segment{{0, 20, 2 * time.Second}, {20, 20, time.Second}}, []int64{5, 15, 20, 0}},
		{"pause", []Segment{{3, 3, time.Second}, {0, 0, time.Second}, {3, 3, time.Second}}, []int64{3, 0, 3, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSchedule(tt.segs...)
			if err != nil {
				t.Fatal(err)
			}
			got := perSecond(s)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestScheduleConstantSpacing(t *testing.T) {
	t.Parallel()
	s, err := Constant(4, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond} {
		if d, _ := s.Due(int64(n)); d != want {
			t.Errorf("request %d due at %v, want %v", n, d, want)
		}
	}
}

func TestScheduleRejects(t *testing.T) {
	t.Parallel()
	bad := [][]Segment{
		nil,
		{{10, 10, 0}},
		{{-1, 10, time.Second}},
	}
	for _, segs := range bad {
		if _, err := NewSchedule(segs...); err == nil {
			t.Errorf("NewSchedule(%v) accepted a bad shape", segs)
		}
	}
	if _, err := Constant(0, time.Second); err == nil {
		t.Error("Constant(0) accepted a zero rate")
	}
}

func BenchmarkScheduleDue(b *testing.B) {
	s, _ := NewSchedule(Segment{100, 1000, 150 * time.Second}, Segment{1000, 1000, time.Hour})
	b.ReportAllocs()
	n := int64(0)
	for b.Loop() {
		if _, ok := s.Due(n); !ok {
			n = 0
		}
		n++
	}
}

func TestArrivalsIsTheSchedulesTotal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		segs []Segment
		want int64
	}{
		{"100/s for 10 min", []Segment{{From: 100, To: 100, Duration: 10 * time.Minute}}, 60000},
		{"1000 over 150 s", []Segment{{From: 1000.0 / 150, To: 1000.0 / 150, Duration: 150 * time.Second}}, 1000},
		{"fractional floors", []Segment{{From: 6.67, To: 6.67, Duration: 150 * time.Second}}, 1000},
		{"ramp and hold", []Segment{{From: 100, To: 1000, Duration: 150 * time.Second}, {From: 1000, To: 1000, Duration: time.Minute}}, 142500},
		{"pause only", []Segment{{Duration: time.Second}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Arrivals(tc.segs...); got != tc.want {
				t.Errorf("Arrivals = %d, want %d", got, tc.want)
			}
			s, err := NewSchedule(tc.segs...)
			if err != nil {
				t.Fatal(err)
			}
			if s.Total() != tc.want {
				t.Errorf("schedule total %d, want %d (one flooring rule)", s.Total(), tc.want)
			}
		})
	}
}

// The schedule's own rate is what the live view shows as the target:
// steady on a constant schedule, the line of a ramp, a shard's share.
func TestScheduleRateAt(t *testing.T) {
	t.Parallel()
	s, err := NewSchedule(Segment{From: 100, To: 100, Duration: 10 * time.Second}, Segment{From: 100, To: 300, Duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	half := *s
	half.shard = Shard{Index: 1, Count: 2}
	tests := []struct {
		s    *Schedule
		at   time.Duration
		want float64
	}{
		{s, 0, 100}, {s, 999 * time.Millisecond, 100}, {s, 9 * time.Second, 100},
		{s, 10 * time.Second, 100}, {s, 15 * time.Second, 200}, {s, 19500 * time.Millisecond, 290},
		{s, 20 * time.Second, 0}, {s, -time.Second, 0},
		{&half, 15 * time.Second, 100},
	}
	for _, tc := range tests {
		if got := tc.s.RateAt(tc.at); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("RateAt(%v) of shard %+v = %g, want %g", tc.at, tc.s.shard, got, tc.want)
		}
	}
}

// One rule of a request rate: the command line, profiles and the schedule
// all call CheckRate, so a rate is refused alike wherever it is given.
func TestCheckRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rps float64
		ok  bool
	}{
		{0, true},
		{0.5, true},
		{100, true},
		{MaxRate, true},
		{MaxRate * 1.0000001, false},
		{2e7, false},
		{-1, false},
		{-0.001, false},
		{math.NaN(), false},
		{math.Inf(1), false},
		{math.Inf(-1), false},
	}
	for _, tt := range tests {
		err := CheckRate(tt.rps)
		if (err == nil) != tt.ok {
			t.Errorf("CheckRate(%g) = %v, want ok %v", tt.rps, err, tt.ok)
			continue
		}
		_, serr := NewSchedule(Segment{From: tt.rps, To: 1, Duration: time.Second})
		if tt.ok {
			if serr != nil {
				t.Errorf("NewSchedule from %g: %v", tt.rps, serr)
			}
			continue
		}
		if want := "want a rate between 0 and 1e+07 requests per second"; err.Error() != want {
			t.Errorf("CheckRate(%g) = %q, want %q", tt.rps, err, want)
		}
		if serr == nil || !strings.HasSuffix(serr.Error(), ": "+err.Error()) {
			t.Errorf("NewSchedule from %g: %v, want CheckRate's error", tt.rps, serr)
		}
	}
}
