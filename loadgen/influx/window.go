package influx

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// status is one of the listener's three rows per transaction.
type status struct {
	count    int64
	sumMs    float64
	minMs    float64
	maxMs    float64
	latency  *hdrhistogram.Histogram // µs
	hasValue bool
}

func newStatus() status {
	return status{latency: result.NewHistogram()}
}

func (s *status) add(d time.Duration) {
	ms := float64(d) / float64(time.Millisecond)
	if !s.hasValue || ms < s.minMs {
		s.minMs = ms
	}
	if !s.hasValue || ms > s.maxMs {
		s.maxMs = ms
	}
	s.hasValue = true
	s.count++
	s.sumMs += ms
	us := max(int64(d/time.Microsecond), 1)
	_ = s.latency.RecordValue(min(us, s.latency.HighestTrackableValue()))
}

func (s *status) reset() {
	s.count, s.sumMs, s.minMs, s.maxMs, s.hasValue = 0, 0, 0, 0, false
	s.latency.Reset()
}

// mean, lo and hi are NaN without requests, which leaves the fields out.
func (s *status) mean() float64 {
	if s.count == 0 {
		return math.NaN()
	}
	return s.sumMs / float64(s.count)
}

func (s *status) lo() float64 {
	if !s.hasValue {
		return math.NaN()
	}
	return s.minMs
}

func (s *status) hi() float64 {
	if !s.hasValue {
		return math.NaN()
	}
	return s.maxMs
}

func (s *status) pct(p float64) float64 {
	if s.count == 0 {
		return math.NaN()
	}
	return float64(s.latency.ValueAtQuantile(p)) / 1000
}

// errorKey is one error row: a response code and message.
type errorKey struct {
	code    string
	message string
}

// window is one second of one transaction's requests.
type window struct {
	ok, ko, all status
	sent, recv  int64
	errors      map[errorKey]int64
}

func newWindow() *window {
	return &window{ok: newStatus(), ko: newStatus(), all: newStatus(), errors: make(map[errorKey]int64)}
}

func (w *window) reset() {
	w.ok.reset()
	w.ko.reset()
	w.all.reset()
	w.sent, w.recv = 0, 0
	clear(w.errors)
}
