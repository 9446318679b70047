package delivery

import (
	"errors"
	"sync"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// Plan is what a follower is told of the run it follows: how many events
// it may send and when each was due. It is a value, so that a follower in
// a process of its own (Remote, Serve) can be told it in one message.
// Due times are given by at most one of Segments, Rate and Interval;
// with none, events are counted but no latency is measured.
type Plan struct {
	// RunID is the eventId prefix: ids are "<RunID>-<n>".
	RunID string `json:"run_id"`
	// Events, Batch, NoAnswers and Sources are Config's.
	Events    uint64 `json:"events"`
	Batch     int    `json:"batch,omitempty"`
	NoAnswers bool   `json:"no_answers,omitempty"`
	Sources   uint64 `json:"sources,omitempty"`
	// Segments is an open-model load: request r is due at the
	// engine.Schedule of these segments' Due(r).
	Segments []engine.Segment `json:"segments,omitempty"`
	// Rate is a constant rate: request r is due r/Rate seconds in.
	Rate float64 `json:"rate,omitempty"`
	// Interval is HV-VES's schedule: Sources producers, each sending
	// every Interval, spread evenly over one interval (loadgen/transport/hv's
	// Config.Due): event n is message n/Sources of producer n mod Sources.
	Interval time.Duration `json:"interval,omitempty"`
}

// Offset returns when event n is due from the run's start, or nil when
// the plan gives no due times.
func (p Plan) Offset() (func(n uint64) time.Duration, error) {
	batch := uint64(max(p.Batch, 1))
	switch {
	case len(p.Segments) > 0:
		sched, err := engine.NewSchedule(p.Segments...)
		if err != nil {
			return nil, err
		}
		return func(n uint64) time.Duration {
			off, _ := sched.Due(int64(n / batch))
			return off
		}, nil
	case p.Rate > 0:
		return func(n uint64) time.Duration {
			return time.Duration(float64(n/batch) / p.Rate * float64(time.Second))
		}, nil
	case p.Interval > 0:
		if p.Sources == 0 {
			return nil, errors.New("delivery: an interval needs the number of producers (sources)")
		}
		return func(n uint64) time.Duration {
			producer, msg := n%p.Sources, n/p.Sources
			return time.Duration(int64(p.Interval)*int64(producer)/int64(p.Sources)) + time.Duration(msg)*p.Interval
		}, nil
	}
	return nil, nil
}

// Start is the instant the run's clock started, set once and read by the
// due times of every event. A follower connects before the run and
// learns the start only when the first request is due; Due waits for it,
// so an event read first (which cannot be, short of another run with the
// same id) is timed right all the same.
type Start struct {
	once  sync.Once
	known chan struct{}
	at    time.Time
}

// NewStart returns a start not yet known.
func NewStart() *Start { return &Start{known: make(chan struct{})} }

// Set records the start; later calls are ignored.
func (s *Start) Set(t time.Time) {
	s.once.Do(func() {
		s.at = t
		close(s.known)
	})
}

// Config turns the plan into a tally's configuration whose due times
// count from start (Config.Due is nil when the plan gives none).
func (p Plan) Config(start *Start) (Config, error) {
	cfg := Config{RunID: p.RunID, Events: p.Events, Batch: p.Batch, NoAnswers: p.NoAnswers, Sources: p.Sources, Start: time.Now()}
	offset, err := p.Offset()
	if err != nil || offset == nil {
		return cfg, err
	}
	cfg.Due = func(n uint64) time.Time {
		<-start.known
		return start.at.Add(offset(n))
	}
	return cfg, nil
}
