package testserver

import (
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// ArrivalGaps summarises the gaps between consecutive event requests as
// they reached the emulator, in microseconds. Several generators that
// share one schedule should interleave: their gaps stay near the nominal
// 1/rate instead of clustering near zero (bursts) and around N/rate.
type ArrivalGaps struct {
	Count int64 `json:"count"`
	P1Us  int64 `json:"p1_us"`
	P5Us  int64 `json:"p5_us"`
	P10Us int64 `json:"p10_us"`
	P25Us int64 `json:"p25_us"`
	P50Us int64 `json:"p50_us"`
	P90Us int64 `json:"p90_us"`
	P99Us int64 `json:"p99_us"`
	MaxUs int64 `json:"max_us"`
}

// arrivals records arrival gaps when Options.RecordArrivals is set. One
// lock per event request is a cost only tests that ask for it pay.
type arrivals struct {
	mu   sync.Mutex
	last time.Time
	gaps *hdrhistogram.Histogram // µs, 1 µs … 10 min
}

func newArrivals() *arrivals {
	return &arrivals{gaps: hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)}
}

// arrive records an event request arriving at now.
func (a *arrivals) arrive(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.last.IsZero() {
		gap := max(now.Sub(a.last).Microseconds(), 1)
		_ = a.gaps.RecordValue(min(gap, a.gaps.HighestTrackableValue()))
	}
	if now.After(a.last) {
		a.last = now
	}
}

func (a *arrivals) summary() *ArrivalGaps {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.gaps
	return &ArrivalGaps{
		Count: h.TotalCount(),
		P1Us:  h.ValueAtQuantile(1), P5Us: h.ValueAtQuantile(5), P10Us: h.ValueAtQuantile(10),
		P25Us: h.ValueAtQuantile(25), P50Us: h.ValueAtQuantile(50), P90Us: h.ValueAtQuantile(90),
		P99Us: h.ValueAtQuantile(99), MaxUs: h.Max(),
	}
}
