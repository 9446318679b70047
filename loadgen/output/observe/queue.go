package observe

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/report/result"
)

// QueueSize is how many events a streaming output holds while its writer
// catches up: at 10,000 requests per second, six seconds of a stalled
// disk. Beyond it events are dropped and counted, never waited for.
const QueueSize = 1 << 16

// flushEvery is how often a streaming output flushes its buffer, so that
// a file followed during the run grows steadily and the rows counted as
// written are on the file (k6's outputs flush the same way).
const flushEvery = 200 * time.Millisecond

// Report is what a streaming output wrote, for the result's warnings.
type Report struct {
	// Name names the output as the user asked for it, e.g. "--jtl r.jtl".
	Name string
	// Rows counts the rows (or intervals) that reached the file.
	Rows int64
	// Dropped counts the events that never reached the file: dropped
	// because the queue was full, or lost to the error that stopped the
	// output (queued, or written to a buffer that could not be flushed).
	Dropped int64
	// Err is the write error that stopped the output, if any.
	Err error
}

// Warning is one line for the result's warnings, or "" when the output
// wrote everything it was given.
func (r Report) Warning() string {
	switch {
	case r.Err != nil && r.Dropped > 0:
		return fmt.Sprintf("%s stopped after %d rows: %v (%d rows dropped; the run and every other output are complete)", r.Name, r.Rows, r.Err, r.Dropped)
	case r.Err != nil:
		return fmt.Sprintf("%s stopped after %d rows: %v (the run and every other output are complete)", r.Name, r.Rows, r.Err)
	case r.Dropped > 0:
		return fmt.Sprintf("%s: %d rows dropped: the writer fell %d events behind the run (%d rows written)", r.Name, r.Dropped, QueueSize, r.Rows)
	}
	return ""
}

// Loss is what the output lost, or nil when it wrote everything it was
// given.
func (r Report) Loss() *result.OutputLoss {
	if r.Err == nil && r.Dropped == 0 {
		return nil
	}
	l := &result.OutputLoss{Name: r.Name, Rows: r.Dropped}
	if r.Err != nil {
		l.Error = r.Err.Error()
	}
	return l
}

// queue runs one streaming output behind a bounded queue drained by a
// goroutine of its own, so that a slow or failing file never holds up the
// engine: put never blocks, and the first write error stops the writer
// (the rows written so far stay, later events are ignored).
type queue[T any] struct {
	name   string
	ch     chan T
	write  func(*T) error
	flush  func() error
	failed atomic.Bool
	given  atomic.Int64 // events put, dropped ones included
	done   chan struct{}
	// Owned by the drain goroutine until done is closed.
	rows, flushed int64
	err           error
}

func newQueue[T any](name string, size int, write func(*T) error, flush func() error) *queue[T] {
	q := &queue[T]{name: name, ch: make(chan T, size), write: write, flush: flush, done: make(chan struct{})}
	go q.drain()
	return q
}

// put hands v to the writer; it never blocks and does not allocate. An
// event the queue has no room for, or that comes after the writer failed,
// is dropped; close counts every event given that did not reach the file.
func (q *queue[T]) put(v *T) {
	q.given.Add(1)
	if q.failed.Load() {
		return
	}
	select {
	case q.ch <- *v:
	default:
	}
}

func (q *queue[T]) drain() {
	defer close(q.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case v, ok := <-q.ch:
			if !ok {
				q.sync()
				return
			}
			if q.err != nil {
				continue // queued before the error: never written
			}
			if err := q.write(&v); err != nil {
				q.stop(err)
				continue
			}
			q.rows++
		case <-t.C:
			q.sync()
		}
	}
}

// sync flushes the writer's buffer; the rows written so far are then on
// the file.
func (q *queue[T]) sync() {
	if q.err != nil {
		return
	}
	if err := q.flush(); err != nil {
		q.stop(err)
		return
	}
	q.flushed = q.rows
}

func (q *queue[T]) stop(err error) {
	q.err = err
	q.failed.Store(true)
}

// close waits until every queued event is written and flushed and
// reports what was. Call it once, after the last put.
func (q *queue[T]) close() Report {
	close(q.ch)
	<-q.done
	// Every event given is on the file or lost: rows written to a buffer
	// that could not be flushed are lost too.
	return Report{Name: q.name, Rows: q.flushed, Dropped: q.given.Load() - q.flushed, Err: q.err}
}
