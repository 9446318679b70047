package delivery

import (
	"context"
	"sync"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Follower reads a source into a tally in the background, from just
// before the first request until the grace after the last.
type Follower struct {
	src    Source
	tally  *Tally
	name   string
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
}

// Follow starts reading src (already preflighted) into t. name is the
// source as reported (no credentials).
func Follow(src Source, t *Tally, name string, now func() time.Time) *Follower {
	ctx, cancel := context.WithCancel(context.Background())
	f := &Follower{src: src, tally: t, name: name, cancel: cancel, done: make(chan error, 1)}
	go func() { f.done <- src.Run(ctx, t, now) }()
	return f
}

// Finish waits until expected events were delivered, grace has passed
// or ctx ends (the user stops waiting), stops reading, and returns the
// figures.
func (f *Follower) Finish(ctx context.Context, expected int64, grace time.Duration) (*result.Delivery, error) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	f.Wait(ctx, expected, timer.C)
	return f.Close(expected, grace)
}

// Wait returns once target distinct events were delivered, deadline
// fires or ctx ends, whichever comes first. A target below zero waits
// for the deadline or ctx alone: a consumer that follows a run on its
// own may not know how many events are coming.
func (f *Follower) Wait(ctx context.Context, target int64, deadline <-chan time.Time) {
	var reached <-chan struct{} // nil: never ready
	if target >= 0 {
		reached = f.tally.Expect(target)
	}
	select {
	case <-reached:
	case <-deadline:
	case <-ctx.Done():
	}
}

// Close stops reading and returns the figures, given the events expected
// (0 when the caller cannot know them) and the grace that was allowed.
func (f *Follower) Close(expected int64, grace time.Duration) (*result.Delivery, error) {
	err := f.stop()
	d, rerr := f.tally.Result(f.name, expected, grace)
	if err == nil {
		err = rerr
	}
	return d, err
}

// Stop stops reading (for a run that did not finish); it is safe after
// Finish and more than once.
func (f *Follower) Stop() { _ = f.stop() }

func (f *Follower) stop() error {
	f.once.Do(func() {
		f.cancel()
		f.err = <-f.done
		f.src.Close()
	})
	return f.err
}
