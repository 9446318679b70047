package engine

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/report/result"
)

// testDispatcher is a dispatcher with a pool of n tokens, all taken, and
// a queue for the pool waiter, on clock.Runtime (virtual in a synctest
// bubble); nothing goes to the network.
func testDispatcher(n int) *dispatcher {
	tl := newTimeline(nil, nil)
	return &dispatcher{
		clock:   clock.Runtime{},
		start:   time.Now(),
		pool:    n,
		pick:    []uint8{0},
		conns:   &connPool{freed: make(chan struct{}, 1), inbox: inboxes(n)},
		tickets: make([]ticket, n),
		waiting: make(chan waitingJob, 16),
		abort:   make(chan struct{}),
		c:       &counters{},
		tl:      tl,
		rec:     newRecorder(nil, 1, 0, tl),
		lag:     newLagMeter(),
	}
}

func inboxes(n int) []chan job {
	in := make([]chan job, n)
	for t := range in {
		in[t] = make(chan job, 1)
	}
	return in
}

// A request that finds no free connection never holds the dispatcher: it
// goes to the waiter, which gives it the first connection that frees up
// within the wait, or counts it as pool_exhausted. In a synctest bubble
// the dispatcher's time is virtual: sending takes no time at all, and the
// others are refused exactly at the end of their wait.
func TestDispatcherNeverWaitsForAConnection(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := testDispatcher(1)
		ctx := context.Background()
		const wait = 200 * time.Millisecond
		done := make(chan struct{})
		go func() {
			d.waitForConnections(ctx, wait)
			close(done)
		}()
		begin := time.Now()
		for n := range int64(3) {
			j := job{seq: n, due: d.start}
			d.reached(j)
			if !d.send(ctx, j, time.Now()) {
				t.Fatal("send reported a stop")
			}
		}
		synctest.Wait()
		if took := time.Since(begin); took != 0 {
			t.Errorf("sending 3 requests with no free connection took %v: the dispatcher waited", took)
		}
		// One connection frees up, halfway through the wait: the oldest
		// waiting request gets it.
		advance(wait / 2)
		d.conns.give(0)
		synctest.Wait()
		select {
		case j := <-d.conns.inbox[0]:
			if j.seq != 0 {
				t.Errorf("request %d got the free connection, want the oldest (0)", j.seq)
			}
		default:
			t.Fatal("no request got the free connection")
		}
		close(d.waiting)
		<-done
		if took := time.Since(begin); took != wait {
			t.Errorf("the others were refused after %v, want at the end of their wait of %v", took, wait)
		}
		got := d.rec.cur.run
		if d.c.sent.Load() != 1 || d.c.exhausted.Load() != 2 || got.Classes[result.ClassPoolExhausted] != 2 {
			t.Errorf("sent %d, exhausted %d (recorded %v), want 1 and 2", d.c.sent.Load(), d.c.exhausted.Load(), got.Classes)
		}
	})
}

// advance moves a synctest bubble's time on by d, once every other
// goroutine in it waits.
func advance(d time.Duration) { clock.Sleep(context.Background(), clock.Runtime{}, d, nil) }

// Without a pool wait a request with no free connection is refused at
// once; with a connection free it is handed over.
func TestDispatcherWithoutPoolWait(t *testing.T) {
	t.Parallel()
	d := testDispatcher(1)
	d.waiting = nil
	ctx := context.Background()
	d.conns.give(0)
	for n := range int64(2) {
		j := job{seq: n, due: d.start}
		d.reached(j)
		d.send(ctx, j, time.Now())
	}
	if d.c.sent.Load() != 1 || d.c.exhausted.Load() != 1 || len(d.conns.inbox[0]) != 1 {
		t.Errorf("sent %d exhausted %d queued %d, want 1, 1, 1", d.c.sent.Load(), d.c.exhausted.Load(), len(d.conns.inbox[0]))
	}
}

// A stop forgets the requests still waiting, at once: they count as not
// sent.
func TestPoolWaiterStopForgetsTheQueue(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := testDispatcher(1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			d.waitForConnections(ctx, time.Hour)
			close(done)
		}()
		for n := range int64(3) {
			j := job{seq: n, due: d.start}
			d.reached(j)
			d.send(ctx, j, time.Now())
		}
		stopped := time.Now()
		cancel()
		close(d.waiting)
		<-done
		if d := time.Since(stopped); d != 0 {
			t.Errorf("the waiter stopped %v after the stop, want at once", d)
		}
		if a := d.c.attempted.Load(); a != 0 || d.c.sent.Load() != 0 || d.c.exhausted.Load() != 0 {
			t.Errorf("attempted %d sent %d exhausted %d, want every waiting request forgotten", a, d.c.sent.Load(), d.c.exhausted.Load())
		}
		if p := d.tl.pending[0].Load(); p != 0 {
			t.Errorf("second 0 still waits for %d outcomes", p)
		}
	})
}

// The silence of a frozen target is found whatever order the answers are
// recorded in.
func TestSilenceIgnoresRecordOrder(t *testing.T) {
	t.Parallel()
	sec := int64(time.Second)
	var s silence
	for i := int64(0); i < 20; i++ { // answers every 100 ms up to 2 s
		s.note(i*sec/10, i*sec/10+sec/100, true)
	}
	// The target freezes from 2 s to 4 s; at 4 s everything is answered,
	// the youngest request recorded first.
	for _, written := range []int64{39 * sec / 10, 3 * sec, 2*sec + sec/100} {
		s.note(written, 4*sec, true)
	}
	s.note(2*sec+sec/2, 4*sec+sec/2, false) // a timeout is no answer
	d, from := s.longest()
	if d < 1800*time.Millisecond || d > 2*time.Second || from < 2*time.Second || from > 2200*time.Millisecond {
		t.Errorf("silence %v from %v, want about 2 s from 2 s", d, from)
	}
	var quiet silence
	quiet.note(0, 3*sec, true) // one slow answer, others answered meanwhile
	for i := int64(1); i < 30; i++ {
		quiet.note(i*sec/10, i*sec/10+sec/100, true)
	}
	if d, _ := quiet.longest(); d >= time.Second {
		t.Errorf("silence %v while the target answered every 100 ms", d)
	}
}
