package delivery

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeMR is a Message Router topic: messages published before the group
// first polls are not delivered to it, as with a new consumer group.
type fakeMR struct {
	mu      sync.Mutex
	queue   []string
	polled  bool
	noTopic bool
	fail    int // polls to answer 503 first
}

func (f *fakeMR) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.noTopic || r.URL.Path != "/events/unauthenticated.SEC_FAULT_OUTPUT/g/1" {
		http.Error(w, `{"mrstatus":3001,"message":"No such topic exists."}`, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	if f.fail > 0 && f.polled {
		f.fail--
		f.mu.Unlock()
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	out := f.queue
	if !f.polled {
		out = nil
		f.polled = true
	}
	f.queue = nil
	f.mu.Unlock()
	if out == nil {
		out = []string{}
	}
	json.NewEncoder(w).Encode(out)
}

func (f *fakeMR) publish(msgs ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, msgs...)
}

func TestDMaaPFollows(t *testing.T) {
	t.Parallel()
	mr := &fakeMR{}
	srv := httptest.NewServer(mr)
	defer srv.Close()
	mr.publish(event("run-ab12-0")) // before the group exists
	endpoint, err := ParseDMaaPURL("dmaap://" + srv.Listener.Addr().String() + "/events/unauthenticated.SEC_FAULT_OUTPUT/g/1")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDMaaP(endpoint, "", "", nil)
	d.PollTimeout = 10 * time.Millisecond
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	tl := newTally(t, 10, 1)
	mr.mu.Lock()
	mr.fail = 1 // one failed poll, retried
	mr.mu.Unlock()
	mr.publish(event("run-ab12-1"), event("run-ab12-2"), "plain text")
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, tl, time.Now) }()
	select {
	case <-tl.Expect(2):
	case <-ctx.Done():
		t.Fatal("events not read")
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r, err := tl.Result("dmaap", 3, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.Delivered != 2 || r.Lost != 1 || r.Foreign != 1 || r.TimestampType != "none" || r.Consumed.Count != 2 || r.E2E.Count != 0 ||
		r.SourceErrors != 1 || !strings.Contains(r.LastError, "HTTP 503") {
		t.Errorf("%+v", r)
	}
}

func TestDMaaPPreflightAndURLs(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(&fakeMR{noTopic: true})
	defer srv.Close()
	endpoint, _ := ParseDMaaPURL("dmaap://" + srv.Listener.Addr().String() + "/events/T/g/1")
	d := NewDMaaP(endpoint, "u", "pw", nil)
	if err := d.Preflight(context.Background()); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("preflight on a missing topic: %v", err)
	}
	tests := []struct{ in, want, wantErr string }{
		{"dmaap://mr:3904/events/T/G/1", "http://mr:3904/events/T/G/1", ""},
		{"dmaaps://mr:3905/events/T/G/1/", "https://mr:3905/events/T/G/1", ""},
		{"http://mr:3904/events/T/G/1", "", "scheme"},
		{"dmaap://mr/events/T/G/1", "", "port"},
		{"dmaap://u:p@mr:3904/events/T/G/1", "", "credentials"},
		{"dmaap://mr:3904/events/T/G", "", "/events/TOPIC/GROUP/ID"},
		{"dmaap://mr:3904/topics/T/G/1", "", "/events/TOPIC/GROUP/ID"},
	}
	for _, tt := range tests {
		got, err := ParseDMaaPURL(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseDMaaPURL(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseDMaaPURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseDMaaPURL(f *testing.F) {
	f.Add("dmaap://mr:3904/events/T/G/1")
	f.Add("dmaaps://[::1]:1/events/a/b/c")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseDMaaPURL(s)
		if err == nil && !strings.HasPrefix(got, "http") {
			t.Fatalf("ParseDMaaPURL(%q) = %q", s, got)
		}
	})
}
