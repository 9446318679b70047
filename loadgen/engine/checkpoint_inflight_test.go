package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A checkpoint shows the requests still waiting for their answer as in
// flight, not as aborted errors: they may well succeed.
func TestCheckpointShowsRequestsInFlight(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	var c checkpoints
	cfg := testConfig(t, srv.URL, 20, time.Second)
	cfg.Pool = 100
	cfg.CheckpointEvery = 400 * time.Millisecond
	cfg.Observers = []Observer{&c}
	res := run(t, cfg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.snaps) == 0 {
		t.Fatal("no checkpoint in a run that lasts over 2 s")
	}
	sawInFlight := false
	for i, s := range c.snaps {
		q := s.Requests
		if s.Errors["aborted"] != 0 || q.Errors != 0 {
			t.Errorf("checkpoint %d: errors %v (%d) against a target that answers every request", i, s.Errors, q.Errors)
		}
		if q.Sent != q.OK+q.Errors+q.InFlight || s.AccountingError() != nil {
			t.Errorf("checkpoint %d: requests %+v do not add up: %v", i, q, s.AccountingError())
		}
		sawInFlight = sawInFlight || q.InFlight > 0
	}
	if !sawInFlight {
		t.Errorf("no checkpoint saw a request in flight with 1.5 s answers: %+v", c.snaps[0].Requests)
	}
	if res.Requests.InFlight != 0 || res.Requests.OK != 20 {
		t.Errorf("final requests %+v errors %v, want 20 ok and none in flight", res.Requests, res.Errors)
	}
}
