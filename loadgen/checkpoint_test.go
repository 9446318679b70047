package loadgen

import (
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
		if !s.Interrupted || s.AccountingError() != nil || s.Requests.Scheduled != 150 {
			t.Fatalf("checkpoint %d: interrupted %v requests %+v: %v", i, s.Interrupted, s.Requests, s.AccountingError())
		}
		if i > 0 && s.Requests.Sent < snaps[i-1].Requests.Sent {
			t.Fatalf("checkpoint %d went back: %d < %d", i, s.Requests.Sent, snaps[i-1].Requests.Sent)
		}
	}
	if res.Interrupted || res.Requests.OK != 150 {
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
