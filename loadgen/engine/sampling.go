package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vesload/vesload/loadgen/sample"
)

// Sampler watches a process or a remote target once a second; see package
// sample for the implementations.
type Sampler = sample.Sampler

// Reading is one sample of a watched process or target.
type Reading = sample.Reading

// sampling polls one Sampler once a second in its own goroutine, so that a
// slow endpoint never delays the recorder. A failed sample is counted by
// the aggregate and never stops the run.
type sampling struct {
	agg    *sample.Aggregate
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex // guards last; agg locks itself
	last *Reading
}

func startSampling(s Sampler) *sampling {
	ctx, cancel := context.WithCancel(context.Background())
	sm := &sampling{agg: sample.NewAggregate(s.Source()), cancel: cancel, done: make(chan struct{})}
	go sm.loop(ctx, s)
	return sm
}

func (sm *sampling) loop(ctx context.Context, s Sampler) {
	defer close(sm.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	take := sm.agg.Prime // the run's CPU counts from its start
	for {
		sctx, cancel := context.WithTimeout(ctx, 900*time.Millisecond)
		r, err := take(sctx, s, time.Now())
		take = sm.agg.Take
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err == nil || errors.Is(err, sample.ErrPartial) {
			sm.mu.Lock()
			sm.last = &r
			sm.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// latest returns the most recent good reading, or nil before the first.
func (sm *sampling) latest() *Reading {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	return sm.last
}

func (sm *sampling) stop() {
	sm.cancel()
	<-sm.done
}
