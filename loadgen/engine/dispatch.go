package engine

import (
	"context"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// job is one due request handed from the dispatcher to a connection.
type job struct {
	seq   int64
	due   time.Time
	kind  uint8  // index into the request kinds
	step  uint16 // closed-model step
	token token  // the connection token it was handed off with
}

// token is one connection of the pool, taken by the dispatcher for each
// request it sends and given back by the worker once the outcome is
// recorded. Its ticket says which request holds it, so that the requests
// an abort cuts off are known one by one (see tickets).
type token uint32

// ticket is the request holding a token, from its hand-off until its
// outcome is recorded. The dispatcher (or the pool waiter) fills it
// before the request counts as sent; the recorder clears it under its
// lock, and reads the ones still held when the run ends.
//
// Only held is atomic: seq and due are written before held is set, and
// read only after held is seen set, under the recorder's lock. They are
// not written again until the token comes back, which happens after the
// worker's record has taken that lock, so the reader never races the
// next hand-off.
type ticket struct {
	held atomic.Bool
	seq  int64
	due  time.Time
}

// counters are the figures the dispatcher, the pool waiter and the
// workers update without a lock; the ticker reads them for the live view
// and the result reads sent once the run is over.
type counters struct {
	attempted atomic.Int64 // due requests the dispatcher reached
	sent      atomic.Int64 // handed to a connection
	exhausted atomic.Int64 // refused for want of a connection
	inFlight  atomic.Int64 // requests on a connection right now
}

// dispatcher is what a Model hands its due requests to: the pool's
// tokens, the workers' queue and the pool waiter's queue. It belongs to
// the dispatching goroutine.
type dispatcher struct {
	// clock is the run's; system says it is clock.System, whose readings
	// the per-request path takes from time.Now directly (see now).
	clock  clock.Clock
	system bool
	start  time.Time
	pool   int
	pick   []uint8 // request seq is of kind pick[seq % len(pick)]
	// conns holds one token per free connection: the dispatcher takes one
	// for each request it sends and the worker gives it back once the
	// outcome is recorded. tickets[t] is the request that holds token t.
	conns   *connPool
	tickets []ticket
	// waiting queues the requests that found no free connection, for the
	// pool waiter; nil when they may not wait (pool wait 0).
	waiting chan waitingJob
	queued  atomic.Int64 // requests with the pool waiter, the one it serves included
	abort   <-chan struct{}

	c   *counters
	tl  *timeline
	rec *recorder
	lag *lagMeter
	// refused and waited are the records of pool_exhausted requests, one
	// for the dispatching goroutine and one for the pool waiter, reused
	// so that a refusal allocates nothing.
	refused, waited record
}

// now reads the run's clock. The system clock is read without an
// interface call: the dispatcher reads the time twice per request.
func (d *dispatcher) now() time.Time {
	if d.system {
		return time.Now()
	}
	return d.clock.Now()
}

// isSystem reports whether c is the system clock.
func isSystem(c clock.Clock) bool {
	_, ok := c.(clock.System)
	return ok
}

func (d *dispatcher) kind(n int64) uint8 { return d.pick[n%int64(len(d.pick))] }

// reached counts a request whose due time the dispatcher has reached.
func (d *dispatcher) reached(j job) {
	d.c.attempted.Add(1)
	d.tl.due(j.due.Sub(d.start).Nanoseconds() / int64(time.Second))
}

// send hands j to a free connection, or queues it for the pool waiter, or
// counts it as pool_exhausted when it may not wait. Requests already
// waiting keep their turn. It blocks only when the waiter's queue is full,
// and reports false when a stop came meanwhile.
func (d *dispatcher) send(ctx context.Context, j job, now time.Time) bool {
	if d.waiting == nil || d.queued.Load() == 0 {
		if t, ok := d.conns.take(); ok {
			d.handOff(j, t)
			return true
		}
		if d.waiting == nil {
			d.exhausted(j, &d.refused)
			return true
		}
	}
	w := waitingJob{job: j, since: now}
	d.queued.Add(1)
	select {
	case d.waiting <- w:
		return true
	default:
	}
	select {
	case d.waiting <- w:
		return true
	case <-ctx.Done():
	case <-d.abort:
	}
	d.queued.Add(-1)
	d.discard(j)
	return false
}

// handOff gives j to a connection whose token t the caller holds. It
// marks t's ticket and counts j as sent before a worker can record its
// outcome, so that a snapshot never sees more outcomes than requests
// sent, and at the end every sent request without an outcome holds a
// ticket.
func (d *dispatcher) handOff(j job, t token) {
	tk := &d.tickets[t]
	tk.seq, tk.due = j.seq, j.due
	tk.held.Store(true)
	j.token = t
	d.c.sent.Add(1)
	d.conns.send(t, j)
}

// exhausted counts j as refused for want of a connection, at its due
// time, through rec, the calling goroutine's record.
func (d *dispatcher) exhausted(j job, rec *record) {
	d.c.exhausted.Add(1)
	*rec = record{
		seq: j.seq, kind: j.kind, step: j.step,
		dueNs:   j.due.Sub(d.start).Nanoseconds(),
		latency: d.now().Sub(j.due).Nanoseconds(),
		class:   transport.PoolExhausted,
	}
	d.rec.record(rec)
}

// discard forgets j, which a stop cut off before it was sent: it counts as
// not sent.
func (d *dispatcher) discard(j job) {
	d.c.attempted.Add(-1)
	d.tl.discard(j.due.Sub(d.start).Nanoseconds() / int64(time.Second))
}

// waitingJob is a due request waiting for a free connection since since.
type waitingJob struct {
	job
	since time.Time
}

// waitQueue is how many requests may wait for a connection at once: the
// arrivals of one pool wait at the peak rate and a quarter more, within
// bounds. When it is full the dispatcher waits (and its lag shows it).
func waitQueue(peak float64, wait time.Duration) int {
	n := peak*wait.Seconds()*1.25 + 64
	return int(min(max(n, 64), 1<<16))
}

// waitForConnections is the pool waiter: it gives each queued request the
// first connection that comes free within the pool wait, oldest first, and
// counts the others as pool_exhausted. Since every request may wait as
// long, the oldest is always the first to run out of time, so one
// goroutine serves them all in order while the dispatcher keeps the
// schedule. A stop forgets the requests still waiting (not sent).
func (d *dispatcher) waitForConnections(ctx context.Context, wait time.Duration) {
	timer := d.clock.NewTimer(time.Hour)
	timer.Stop()
	for w := range d.waiting {
		if !d.serve(ctx, w, wait, timer) {
			d.discardWaiting(w.job)
			return
		}
		d.queued.Add(-1)
	}
}

// serve gives w a connection or counts it as pool_exhausted; it reports
// false when a stop came first.
func (d *dispatcher) serve(ctx context.Context, w waitingJob, wait time.Duration, timer clock.Timer) bool {
	if t, ok := d.conns.take(); ok {
		d.handOff(w.job, t)
		return true
	}
	left := wait - d.now().Sub(w.since)
	if left <= 0 {
		d.exhausted(w.job, &d.waited)
		return true
	}
	timer.Reset(left)
	defer timer.Stop()
	for {
		select {
		case <-d.conns.freed:
			if t, ok := d.conns.take(); ok {
				d.handOff(w.job, t)
				return true
			}
		case <-timer.C():
			d.exhausted(w.job, &d.waited)
			return true
		case <-ctx.Done():
			return false
		case <-d.abort:
			return false
		}
	}
}

// discardWaiting forgets j and every request queued behind it.
func (d *dispatcher) discardWaiting(j job) {
	d.discard(j)
	for w := range d.waiting {
		d.discard(w.job)
	}
}

// lagMeter measures the dispatch lag: how late the dispatcher reached each
// due request. Time spent waiting for a connection is not lag (that is the
// pool's limit, not the generator's), so neither is a frozen target.
// The dispatcher owns the histograms; the live summary is published
// through atomics.
type lagMeter struct {
	run  *hdrhistogram.Histogram // over the run
	sec  *hdrhistogram.Histogram // the current second
	roll time.Time               // when sec is next summarised

	maxUs atomic.Int64 // largest lag since the ticker last looked
	p50Us atomic.Int64 // percentiles of the last whole second
	p99Us atomic.Int64
}

func newLagMeter() *lagMeter {
	return &lagMeter{run: result.NewHistogram(), sec: result.NewHistogram()}
}

// dispatched records the lag of a request due at due that the dispatcher
// reached at now.
func (m *lagMeter) dispatched(due, now time.Time) {
	us := min(max(now.Sub(due).Microseconds(), 0), result.HistogramHighestUs)
	m.run.RecordValue(us)
	m.sec.RecordValue(us)
	if us > m.maxUs.Load() {
		m.maxUs.Store(us)
	}
	// Once a second the dispatcher summarises its own lag for the live
	// view; the ticker cannot read a histogram it does not own.
	if due.After(m.roll) {
		m.p50Us.Store(m.sec.ValueAtQuantile(50))
		m.p99Us.Store(m.sec.ValueAtQuantile(99))
		m.sec.Reset()
		m.roll = due.Add(time.Second)
	}
}
