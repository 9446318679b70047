package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func TestCheckpoints(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	var c checkpoints
	cfg := testConfig(t, srv.URL, 50, 3*time.Second)
	cfg.Pool = 150 // never short of connections, even on a loaded machine
	cfg.CheckpointEvery = time.Second
	cfg.Observers = []Observer{&c}
	res := run(t, cfg)
	c.mu.Lock()
	defer c.mu.Unlock()
	snaps := c.snaps
	if len(snaps) < 2 {
		t.Fatalf("%d checkpoints in a 3 s run, want at least 2", len(snaps))
	}
	for i, s := range snaps {
		if !s.Interrupted || s.AccountingError() != nil || s.Requests.Scheduled+s.Requests.NotYetDue != 150 {
			t.Fatalf("checkpoint %d: interrupted %v requests %+v: %v", i, s.Interrupted, s.Requests, s.AccountingError())
		}
		// The run goes on: what is not due yet is not "not sent".
		if q := s.Requests; q.NotSent != 0 || (i < len(snaps)-1 && q.NotYetDue == 0) {
			t.Fatalf("checkpoint %d of a run going on: not sent %d, not yet due %d; want 0 and the rest of the schedule", i, q.NotSent, q.NotYetDue)
		}
		if i > 0 && s.Requests.Sent < snaps[i-1].Requests.Sent {
			t.Fatalf("checkpoint %d went back: %d < %d", i, s.Requests.Sent, snaps[i-1].Requests.Sent)
		}
	}
	if res.Interrupted || res.Requests.OK != 150 || res.Requests.NotYetDue != 0 {
		t.Fatalf("final result: interrupted %v requests %+v", res.Interrupted, res.Requests)
	}
}

// checkpoints keeps every checkpoint it sees.
type checkpoints struct {
	NopObserver
	mu    sync.Mutex
	snaps []*result.Result
}

func (c *checkpoints) Checkpoint(r *result.Result) {
	c.mu.Lock()
	c.snaps = append(c.snaps, r)
	c.mu.Unlock()
}

// The live figures tell the requests to come from those a stop cut off:
// while the schedule goes on the rest is not yet due; once a stop ended
// it, the result counts the rest as not sent.
func TestProgressNotYetDue(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &progresses{first: make(chan struct{})}
	cfg := testConfig(t, srv.URL, 50, 10*time.Second)
	cfg.Observers = []Observer{p}
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-p.first
		cancel() // stop after the first second
	}()
	res, err := e.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	first := p.seen[0]
	p.mu.Unlock()
	if first.NotSent != 0 || first.NotYetDue == 0 || first.NotYetDue+first.Scheduled != 500 {
		t.Errorf("first second: scheduled %d, not yet due %d, not sent %d; want the rest of 500 not yet due, none not sent",
			first.Scheduled, first.NotYetDue, first.NotSent)
	}
	if q := res.Requests; q.NotSent == 0 || q.NotYetDue != 0 || q.Scheduled != 500 {
		t.Errorf("stopped run: %+v; want the rest not sent, none not yet due", q)
	}
}

// progresses keeps every live view it sees and says when the first came.
type progresses struct {
	NopObserver
	mu    sync.Mutex
	seen  []Progress
	first chan struct{}
}

func (p *progresses) Second(pr *Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, *pr)
	if len(p.seen) == 1 {
		close(p.first)
	}
}
