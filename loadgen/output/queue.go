package output

import (
	"context"
	"sync"
	"time"
)

// Written is what an output's queue did with its batches, for the
// result's section of the output: write errors are counted, never fatal.
type Written struct {
	Batches int64 // batches the store took
	Items   int64 // points or samples in those batches
	Failed  int64 // batches the store refused or that could not be sent
	Dropped int64 // batches a full queue or the end of the run left out
	// LastError is the reason of the last failure or drop.
	LastError string
}

// Queue is the bounded queue of an output that writes batches to a store
// from one goroutine: Put never waits (a full queue drops and counts the
// batch), and Close waits a bounded time, then counts every batch queued
// and not yet resolved as dropped (the one being written too, whatever
// becomes of it) and cancels the write under way. Every batch put is thus
// written, failed or dropped, once.
type Queue[B any] struct {
	ch     chan B
	cfg    QueueConfig[B]
	done   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc

	mu               sync.Mutex
	queued, resolved int64
	shut, abandoned  bool
	w                Written
}

// QueueConfig is what a Queue does with its batches.
type QueueConfig[B any] struct {
	// Size is how many batches may wait.
	Size int
	// Write sends one batch within ctx, which Close cancels when it
	// stops waiting.
	Write func(ctx context.Context, b B) error
	// Items counts what a written batch held (points, samples).
	Items func(b B) int64
	// Full is the reason a full queue gives for a drop.
	Full string
	// Done, when set, runs on the writer goroutine after its last write
	// (closing the client's idle connections).
	Done func()
}

// NewQueue starts the writer goroutine of a queue.
func NewQueue[B any](cfg QueueConfig[B]) *Queue[B] {
	q := &Queue[B]{ch: make(chan B, cfg.Size), cfg: cfg, done: make(chan struct{})}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	go q.run()
	return q
}

// Put queues b, or drops and counts it when the queue is full or closed.
func (q *Queue[B]) Put(b B) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shut {
		q.w.Dropped++
		return
	}
	select {
	case q.ch <- b:
		q.queued++
	default:
		q.w.Dropped++
		q.w.LastError = q.cfg.Full
	}
}

// Close stops taking batches, waits up to wait for the queue to drain and
// returns what was written. Closing again only returns the figures.
func (q *Queue[B]) Close(wait time.Duration) Written {
	q.mu.Lock()
	if !q.shut {
		q.shut = true
		close(q.ch)
	}
	q.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-q.done:
	case <-timer.C:
		q.mu.Lock()
		if !q.abandoned {
			q.abandoned = true
			q.w.Dropped += q.queued - q.resolved
		}
		q.mu.Unlock()
	}
	q.cancel()
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.w
}

// Figures are what the queue did so far.
func (q *Queue[B]) Figures() Written {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.w
}

// run writes the batches in order until the queue is closed.
func (q *Queue[B]) run() {
	defer close(q.done)
	if q.cfg.Done != nil {
		defer q.cfg.Done()
	}
	for b := range q.ch {
		q.mu.Lock()
		abandoned := q.abandoned
		q.mu.Unlock()
		if abandoned {
			continue // counted as dropped by Close
		}
		err := q.cfg.Write(q.ctx, b)
		q.mu.Lock()
		if !q.abandoned { // else counted as dropped by Close, even if it arrived
			q.resolved++
			if err != nil {
				q.w.Failed++
				q.w.LastError = err.Error()
			} else {
				q.w.Batches++
				q.w.Items += q.cfg.Items(b)
			}
		}
		q.mu.Unlock()
	}
}
