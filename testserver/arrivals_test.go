package testserver

import (
	"testing"
	"time"
)

func TestArrivalGaps(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name     string
		at       func(i int) time.Duration
		p25, p50 int64
	}{
		// 40 arrivals 25 ms apart: every gap is nominal.
		{"interleaved", func(i int) time.Duration { return time.Duration(i) * 25 * time.Millisecond }, 25000, 25000},
		// Four generators firing together every 100 ms: three gaps in
		// four are (almost) zero.
		{"bursts of four", func(i int) time.Duration {
			return time.Duration(i/4)*100*time.Millisecond + time.Duration(i%4)*time.Microsecond
		}, 1, 1},
	}
	for _, tt := range tests {
		a := newArrivals()
		for i := range 40 {
			a.arrive(t0.Add(tt.at(i)))
		}
		g := a.summary()
		// HDR histograms keep 3 significant digits.
		near := func(got, want int64) bool { return got >= want && got <= want+want/500+1 }
		if g.Count != 39 || !near(g.P25Us, tt.p25) || !near(g.P50Us, tt.p50) {
			t.Errorf("%s: %+v, want 39 gaps with p25 %d µs, p50 %d µs", tt.name, g, tt.p25, tt.p50)
		}
	}
}

func TestArrivalGapsInStats(t *testing.T) {
	t.Parallel()
	s, err := Start(Options{RecordArrivals: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if g := s.Stats().ArrivalGaps; g == nil || g.Count != 0 {
		t.Fatalf("arrival gaps %+v before any request", g)
	}
	plain, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if g := plain.Stats().ArrivalGaps; g != nil {
		t.Fatalf("arrival gaps %+v without RecordArrivals", g)
	}
}
