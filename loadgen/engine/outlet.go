package engine

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/report/result"
)

// tick is the snapshot of one wall second that every output reads: the
// live figures and the seconds of the timeline that became final at it.
// The recorder builds it once; nothing changes it afterwards, so every
// output reads the same one on a goroutine of its own
// (docs/ARCHITECTURE.md, "Observers").
type tick struct {
	live    *Progress // nil on the run's last, which only closes seconds
	seconds []closedSecond
	// refs counts the outlets that have yet to deliver or skip the tick;
	// the last one gives its seconds' Tallies back to pool for reuse.
	refs atomic.Int32
	pool *tallyPool
}

// release is an outlet's being done with t.
func (t *tick) release() {
	if t.refs.Add(-1) == 0 {
		t.recycle()
	}
}

func (t *tick) recycle() {
	for _, s := range t.seconds {
		t.pool.put(s.t)
	}
}

// tallyPool keeps closed seconds' Tallies for reuse once every output has
// read them, so that a run does not make two new histograms a second.
type tallyPool struct {
	free chan *result.Tally
	// split: the Tallies carry the split by outcome (an OutcomeSplitter
	// reads it), counted apart under the lock and joined after it.
	split bool
}

func newTallyPool() *tallyPool { return &tallyPool{free: make(chan *result.Tally, 8)} }

// get is a reset Tally, reused when one is free.
func (p *tallyPool) get() *result.Tally {
	select {
	case t := <-p.free:
		return t
	default:
		t := result.NewTally()
		if p.split {
			t = result.NewSecondTally()
		}
		return &t
	}
}

// put resets t and keeps it, unless enough are kept already.
func (p *tallyPool) put(t *result.Tally) {
	if p == nil || t == nil {
		return
	}
	t.Reset()
	select {
	case p.free <- t:
	default:
	}
}

// closedSecond is one final second of the timeline: its entry and the
// Tally of the requests due in it (latency, service time), handed over by
// the timeline, which never writes it again.
type closedSecond struct {
	s result.Second
	t *result.Tally
}

// tickQueue is how many snapshots an output may fall behind before it
// skips the oldest: long enough for a disk's or a network's hiccup,
// short enough that a stuck output holds little memory.
const tickQueue = 16

// outputDrain bounds how long the end of a run waits for the outputs to
// take what they were given (a checkpoint being written, the last
// seconds); one still busy then is left behind (and says so in the
// result), so that a stuck output never holds up the result.
const outputDrain = 5 * time.Second

// outlet runs one observer on a goroutine of its own, fed through bounded
// queues: the engine never waits for it, and what it skips it counts.
type outlet struct {
	o    Observer
	name string
	live bool
	// readsUpdates and readsSeconds say which parts of a snapshot the
	// observer reads (TickReader): only they are counted when skipped.
	readsUpdates, readsSeconds bool
	ticks                      chan *tick
	checkpoint                 chan *result.Result // one: a newer snapshot replaces a waiting one
	done                       chan struct{}
	// gone is set when the run ended without the outlet: it delivers
	// nothing more.
	gone    atomic.Bool
	updates atomic.Int64 // live updates skipped
	seconds atomic.Int64 // seconds of the timeline skipped
}

// outlets are the run's observers, each behind its outlet, in the order
// of Config.Observers.
type outlets []*outlet

// startOutlets starts one outlet per observer.
func startOutlets(obs []Observer) outlets {
	out := make(outlets, len(obs))
	for i, o := range obs {
		ol := &outlet{o: o, ticks: make(chan *tick, tickQueue), checkpoint: make(chan *result.Result, 1), done: make(chan struct{})}
		ol.name, ol.live = unnamedObserver, true
		if n, ok := o.(OutputNamer); ok {
			ol.name, ol.live = n.OutputName()
		}
		ol.readsUpdates, ol.readsSeconds = true, true
		if r, ok := o.(TickReader); ok {
			ol.readsUpdates, ol.readsSeconds = r.ReadsTicks()
		}
		go ol.run()
		out[i] = ol
	}
	return out
}

func (ol *outlet) run() {
	defer close(ol.done)
	for {
		select {
		case t, ok := <-ol.ticks:
			if !ok {
				return
			}
			ol.deliver(t)
			t.release()
		case r := <-ol.checkpoint:
			if !ol.gone.Load() {
				ol.o.Checkpoint(r)
			}
		}
	}
}

func (ol *outlet) deliver(t *tick) {
	for i := range t.seconds {
		if ol.gone.Load() {
			return
		}
		ol.o.Timeline(t.seconds[i].s, t.seconds[i].t)
	}
	if t.live != nil && !ol.gone.Load() {
		ol.o.Second(t.live)
	}
}

// publish hands t to the outlet without waiting: when the outlet is
// tickQueue snapshots behind, the oldest waiting one is skipped and
// counted.
func (ol *outlet) publish(t *tick) {
	for {
		select {
		case ol.ticks <- t:
			return
		default:
		}
		select {
		case old := <-ol.ticks:
			ol.skip(old)
			old.release()
		default:
		}
	}
}

// skip counts what the observer lost of t: only what it reads.
func (ol *outlet) skip(t *tick) {
	if ol.readsSeconds {
		ol.seconds.Add(int64(len(t.seconds)))
	}
	if t.live != nil && ol.readsUpdates {
		ol.updates.Add(1)
	}
}

// offer hands the outlet its own copy of a checkpoint, replacing one it
// has not taken yet: a newer snapshot holds everything an older one did.
func (ol *outlet) offer(r *result.Result) {
	c := *r
	// Appends made by one output (its notes) do not reach another's copy.
	c.Warnings = slices.Clip(c.Warnings)
	c.Thresholds = slices.Clip(c.Thresholds)
	for {
		select {
		case ol.checkpoint <- &c:
			return
		default:
		}
		select {
		case <-ol.checkpoint:
		default:
		}
	}
}

// publish hands t to every outlet; once they are all done with it, its
// Tallies go back to its pool.
func (os outlets) publish(t *tick) {
	if len(os) == 0 {
		t.recycle()
		return
	}
	t.refs.Store(int32(len(os)))
	for _, ol := range os {
		ol.publish(t)
	}
}

func (os outlets) offer(r *result.Result) {
	for _, ol := range os {
		ol.offer(r)
	}
}

// close ends the outlets once the last snapshot is published: each
// delivers what it holds, within wait for all of them together; the ones
// still busy then are left behind. It returns what each output lost.
func (os outlets) close(wait time.Duration) []result.OutputLoss {
	for _, ol := range os {
		// A checkpoint not taken yet is stale: the final result follows.
		select {
		case <-ol.checkpoint:
		default:
		}
		close(ol.ticks)
	}
	deadline := time.Now().Add(wait)
	var lost []result.OutputLoss
	for _, ol := range os {
		unfinished := !waitDone(ol.done, time.Until(deadline))
		if unfinished {
			ol.gone.Store(true)
		}
		l := result.OutputLoss{Name: ol.name, Live: ol.live, Seconds: ol.seconds.Load(), Updates: ol.updates.Load(), Unfinished: unfinished}
		if l.Live {
			l.Seconds = 0 // a live view shows the live figures: what it missed is updates
		}
		if l.Seconds > 0 || l.Updates > 0 || l.Unfinished {
			lost = append(lost, l)
		}
	}
	return lost
}

// waitDone waits up to d for done, and reports whether it came.
func waitDone(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
