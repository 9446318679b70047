package loadgen

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// journal records, in one list, every event each observer sees.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(s string) {
	j.mu.Lock()
	j.entries = append(j.entries, s)
	j.mu.Unlock()
}

// logger is an observer that writes what it sees into a journal.
type logger struct {
	name string
	j    *journal
	// seconds holds the timeline it saw; sums the requests it saw.
	seconds  []result.Second
	requests int64
	ckpts    []int64
}

func (l *logger) Begin(time.Time)             { l.j.add(l.name + " begin") }
func (l *logger) Second(p *Progress)          { l.j.add(fmt.Sprintf("%s second %v", l.name, p.Elapsed)) }
func (l *logger) Checkpoint(r *result.Result) { l.ckpts = append(l.ckpts, r.Requests.Sent) }
func (l *logger) Request(ev *RequestEvent) {
	l.requests++
	l.j.add(fmt.Sprintf("%s request %d", l.name, ev.Seq))
}
func (l *logger) Timeline(s result.Second, t *result.Tally) {
	l.seconds = append(l.seconds, s)
	l.j.add(fmt.Sprintf("%s timeline %d %d", l.name, s.T, t.Scheduled))
}

func TestObserversFanOutInOrder(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	j := &journal{}
	a, b, c := &logger{name: "a", j: j}, &logger{name: "b", j: j}, &logger{name: "c", j: j}
	cfg := testConfig(t, srv.URL, 40, 2500*time.Millisecond)
	cfg.CheckpointEvery = time.Second
	cfg.Observers = []Observer{a, b, c}
	res := run(t, cfg)

	// Every event reaches the observers one after the other, in the order
	// of the list, before the next event.
	if len(j.entries)%3 != 0 {
		t.Fatalf("%d entries, not a multiple of 3 observers", len(j.entries))
	}
	for i := 0; i < len(j.entries); i += 3 {
		ev := j.entries[i][2:]
		if j.entries[i] != "a "+ev || j.entries[i+1] != "b "+ev || j.entries[i+2] != "c "+ev {
			t.Fatalf("entries %d–%d: %q, want a, b, c each see %q in turn", i, i+2, j.entries[i:i+3], ev)
		}
	}
	if j.entries[0] != "a begin" {
		t.Errorf("first event %q, want begin", j.entries[0])
	}
	for _, l := range []*logger{a, b, c} {
		if l.requests != 100 {
			t.Errorf("%s saw %d requests, want 100", l.name, l.requests)
		}
		var scheduled int64
		for i, s := range l.seconds {
			if s.T != int64(i) {
				t.Errorf("%s: timeline entry %d is second %d, want seconds in order", l.name, i, s.T)
			}
			scheduled += s.Scheduled
		}
		if len(l.seconds) != len(res.Timeline) || scheduled != 100 {
			t.Errorf("%s saw %d seconds scheduling %d, want the result's %d seconds scheduling 100", l.name, len(l.seconds), scheduled, len(res.Timeline))
		}
		if len(l.ckpts) < 1 {
			t.Errorf("%s saw no checkpoint in a 2.5 s run checkpointing every second", l.name)
		}
		for i := 1; i < len(l.ckpts); i++ {
			if l.ckpts[i] < l.ckpts[i-1] {
				t.Errorf("%s: checkpoints out of order: %v", l.name, l.ckpts)
			}
		}
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
