package engine

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// logger is an observer that notes what it sees.
type logger struct {
	mu     sync.Mutex
	events []string // begin, second and timeline, in the order seen
	// seconds holds the timeline it saw; requests counts the requests.
	seconds  []result.Second
	requests atomic.Int64
	ckpts    []int64
}

func (l *logger) note(s string) {
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *logger) Begin(time.Time)             { l.note("begin") }
func (l *logger) Second(p *Progress)          { l.note(fmt.Sprintf("second %v", p.Elapsed)) }
func (l *logger) Checkpoint(r *result.Result) { l.ckpts = append(l.ckpts, r.Requests.Sent) }
func (l *logger) Request(*RequestEvent)       { l.requests.Add(1) }
func (l *logger) Timeline(s result.Second, t *result.Tally) {
	l.seconds = append(l.seconds, s)
	l.note(fmt.Sprintf("timeline %d %d", s.T, t.Scheduled))
}

// Every observer sees begin first, every request once, each second of
// the timeline once and in order, and checkpoints in order.
func TestObserversSeeEveryEventInOrder(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	a, b, c := &logger{}, &logger{}, &logger{}
	cfg := testConfig(t, srv.URL, 40, 2500*time.Millisecond)
	cfg.CheckpointEvery = time.Second
	cfg.Observers = []Observer{a, b, c}
	res := run(t, cfg)

	for i, l := range []*logger{a, b, c} {
		if len(l.events) == 0 || l.events[0] != "begin" {
			t.Errorf("observer %d: first event %v, want begin", i, l.events)
		}
		if n := l.requests.Load(); n != 100 {
			t.Errorf("observer %d saw %d requests, want 100", i, n)
		}
		var scheduled int64
		for k, s := range l.seconds {
			if s.T != int64(k) {
				t.Errorf("observer %d: timeline entry %d is second %d, want seconds in order", i, k, s.T)
			}
			scheduled += s.Scheduled
		}
		if len(l.seconds) != len(res.Timeline) || scheduled != 100 {
			t.Errorf("observer %d saw %d seconds scheduling %d, want the result's %d seconds scheduling 100", i, len(l.seconds), scheduled, len(res.Timeline))
		}
		if len(l.ckpts) < 1 {
			t.Errorf("observer %d saw no checkpoint in a 2.5 s run checkpointing every second", i)
		}
		for k := 1; k < len(l.ckpts); k++ {
			if l.ckpts[k] < l.ckpts[k-1] {
				t.Errorf("observer %d: checkpoints out of order: %v", i, l.ckpts)
			}
		}
	}
	if len(res.Outputs) != 0 {
		t.Errorf("outputs lost %+v, want none", res.Outputs)
	}
}

// stuck is an output that stops in its first Second for hold, as a live
// line on a terminal whose output is paused does, and tells entered. It
// holds on clock.Runtime: in a synctest bubble the hold is virtual.
type stuck struct {
	NopObserver
	hold    time.Duration
	entered chan struct{}
	once    sync.Once
}

func (s *stuck) Second(*Progress) {
	s.once.Do(func() {
		close(s.entered)
		clock.Sleep(context.Background(), clock.Runtime{}, s.hold, nil)
	})
}

func (s *stuck) OutputName() (name string, live bool) { return "stuck line", true }

// An output that stops loses only itself: the run sends everything on
// time and the other observers see every second. In a synctest bubble
// "on time" is exact: the dispatcher is never late at all.
func TestStuckOutputLosesOnlyItself(t *testing.T) {
	t.Parallel()
	s, err := Constant(200, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	st := &stuck{hold: 1500 * time.Millisecond, entered: make(chan struct{})}
	other := &logger{}
	cfg := Config{Load: s, Pool: 16, PoolWait: 500 * time.Millisecond, Timeout: 2 * time.Second,
		Observers: []Observer{st, other}}
	res, _ := runVirtual(t, cfg, &virtualTarget{service: time.Millisecond})
	if lag := res.Generator.DispatchLagMaxMs; lag != 0 {
		t.Errorf("dispatch lag max %.3f ms: the stuck output held the run up", lag)
	}

	if res.Requests.Sent != 600 || res.Errors[result.ClassPoolExhausted] != 0 {
		t.Errorf("sent %d, pool_exhausted %d; want 600 sent, none exhausted", res.Requests.Sent, res.Errors[result.ClassPoolExhausted])
	}
	if len(other.seconds) != len(res.Timeline) || other.requests.Load() != 600 {
		t.Errorf("the other observer saw %d seconds and %d requests, want %d and 600", len(other.seconds), other.requests.Load(), len(res.Timeline))
	}
}

// blocked is an output whose Second waits until released. entered is
// buffered: the first Second tells it even before the test listens.
type blocked struct {
	NopObserver
	entered, release chan struct{}
}

func (b *blocked) Second(*Progress) {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.release
}

func (b *blocked) OutputName() (name string, live bool) { return "--blocked", false }

// An outlet that falls behind skips the oldest snapshots and counts them;
// one still busy at the end is left behind and named unfinished.
func TestOutletSkipsAndCounts(t *testing.T) {
	t.Parallel()
	b := &blocked{entered: make(chan struct{}, 1), release: make(chan struct{})}
	outs := startOutlets([]Observer{b})
	second := func(n int64) *tick {
		return &tick{live: &Progress{Elapsed: time.Duration(n) * time.Second}, seconds: []closedSecond{{s: result.Second{T: n}, t: &result.Tally{}}}}
	}
	outs.publish(second(0))
	<-b.entered // the first snapshot is being delivered
	for n := int64(1); n <= tickQueue+3; n++ {
		outs.publish(second(n))
	}
	lost := outs.close(50 * time.Millisecond)
	close(b.release)
	<-outs[0].done
	want := []result.OutputLoss{{Name: "--blocked", Seconds: 3, Updates: 3, Unfinished: true}}
	if len(lost) != 1 || lost[0] != want[0] {
		t.Errorf("lost %+v, want %+v", lost, want)
	}
	if !lost[0].Incomplete() {
		t.Error("a record that lost seconds is complete")
	}
}

// Adding observers costs the request path no allocation.
func TestObserversAllocateNothingPerRequest(t *testing.T) {
	r := newRecorder([]Observer{NopObserver{}, &countRequests{}}, 1, 0, newTimeline(nil, nil))
	rec := &record{seq: 1, dueNs: int64(500 * time.Millisecond), latency: 2e6, service: 1e6, class: transport.HTTP, code: 503}
	r.record(rec)
	allocs := testing.AllocsPerRun(1000, func() { r.record(rec) })
	if allocs != 0 {
		t.Errorf("recording a request allocates %.1f times, want 0", allocs)
	}
}

type countRequests struct {
	NopObserver
	n int
}

func (c *countRequests) Request(*RequestEvent) { c.n++ }

// checkpointsOnly reads checkpoints alone, like the checkpointer; its
// Checkpoint waits until released (a machine that stalled mid-write).
type checkpointsOnly struct {
	NopObserver
	entered, release chan struct{}
}

func (c *checkpointsOnly) Checkpoint(*result.Result) {
	c.entered <- struct{}{}
	<-c.release
}

func (c *checkpointsOnly) OutputName() (name string, live bool) { return "--checkpoint", false }
func (c *checkpointsOnly) ReadsTicks() (updates, seconds bool)  { return false, false }

// unnamed reads every snapshot and gives no name; its Second waits until
// released.
type unnamed struct{ blocked }

func (unnamed) OutputName() {} // hides blocked's: this observer has no name

// After a stall, an observer whose outlet skipped snapshots it never
// reads lost nothing and is not named; one of the run's own that gives
// no name is named in words, not by its Go type, and counts as live, so
// that it never makes the verdict INCOMPLETE.
func TestOutletCountsOnlyWhatTheObserverReads(t *testing.T) {
	t.Parallel()
	ck := &checkpointsOnly{entered: make(chan struct{}, 1), release: make(chan struct{})}
	un := &unnamed{blocked{entered: make(chan struct{}, 1), release: make(chan struct{})}}
	outs := startOutlets([]Observer{ck, un})
	second := func(n int64) *tick {
		return &tick{live: &Progress{Elapsed: time.Duration(n) * time.Second}, seconds: []closedSecond{{s: result.Second{T: n}, t: &result.Tally{}}}}
	}
	outs.offer(&result.Result{})
	<-ck.entered // the checkpoint is being written
	outs.publish(second(0))
	<-un.entered
	for n := int64(1); n <= tickQueue+3; n++ {
		outs.publish(second(n))
	}
	close(ck.release)
	close(un.release)
	lost := outs.close(time.Minute)
	if len(lost) != 1 {
		t.Fatalf("lost %+v, want the unnamed observer's updates alone", lost)
	}
	if l := lost[0]; l.Name != unnamedObserver || strings.Contains(l.Name, "engine") || !l.Live || l.Incomplete() || l.Updates != 3 {
		t.Errorf("lost %+v, want %q, live, 3 updates skipped", l, unnamedObserver)
	}
}
