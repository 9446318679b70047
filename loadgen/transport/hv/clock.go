package hv

import (
	"context"
	"time"
)

// Clock is the producers' time source, so that tests can drive
// schedules without waiting on the wall clock.
type Clock interface {
	Now() time.Time
	// NewSleeper returns a sleeper for one goroutine.
	NewSleeper() Sleeper
}

// Sleeper waits for due times; one belongs to one goroutine, so that it
// can reuse its timer and allocate nothing per wait.
type Sleeper interface {
	// SleepUntil returns when t is reached, or ctx's error first.
	SleepUntil(ctx context.Context, t time.Time) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewSleeper() Sleeper {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &timerSleeper{t: t}
}

type timerSleeper struct{ t *time.Timer }

func (s *timerSleeper) SleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	s.t.Reset(d)
	select {
	case <-s.t.C:
		return nil
	case <-ctx.Done():
		s.t.Stop()
		return ctx.Err()
	}
}
