package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/expect"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
)

// TestRESTTransportCarriesTheRun: the transport a run hands the engine
// sends what the run's configuration says: each kind of the mix to its own
// path with its own headers beside the run's, the method, user agent,
// basic credentials, and the expected statuses.
func TestRESTTransportCarriesTheRun(t *testing.T) {
	t.Parallel()
	type seen struct{ method, path, ua, auth, run, kind string }
	var (
		mu  sync.Mutex
		got []seen
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Method, r.URL.Path, r.UserAgent(), r.Header.Get("Authorization"), r.Header.Get("X-Run"), r.Header.Get("X-Kind")})
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	ok200, err := expect.Parse([]string{"200"})
	if err != nil {
		t.Fatal(err)
	}
	base := srv.URL + "/eventListener/v7"
	tests := []struct {
		name  string
		cfg   engine.Config
		want  []seen
		class string // of every answer (202)
	}{
		{
			name:  "one request",
			cfg:   engine.Config{URL: base, Method: http.MethodPut, Headers: []engine.Header{{Name: "X-Run", Value: "r1"}}},
			want:  []seen{{http.MethodPut, "/eventListener/v7", "vesload", "", "r1", ""}},
			class: "ok",
		},
		{
			name: "mix with credentials and expected status",
			cfg: engine.Config{URL: base, UserAgent: "ua/1", User: "ves", Password: "pw", Expect: ok200,
				Headers: []engine.Header{{Name: "X-Run", Value: "r2"}},
				Mix: []engine.Request{
					{Name: "a", URL: base, Headers: []engine.Header{{Name: "X-Kind", Value: "a"}}},
					{Name: "b", URL: base + "/eventBatch", Headers: []engine.Header{{Name: "X-Kind", Value: "b"}}},
				}},
			want: []seen{
				{http.MethodPost, "/eventListener/v7", "ua/1", "Basic dmVzOnB3", "r2", "a"},
				{http.MethodPost, "/eventListener/v7/eventBatch", "ua/1", "Basic dmVzOnB3", "r2", "b"},
			},
			class: "http_202", // ONAP's plans expect 202; here only 200 counts
		},
	}
	for _, tt := range tests {
		mu.Lock()
		got = nil
		mu.Unlock()
		tt.cfg.Pool, tt.cfg.Timeout = 1, 5*time.Second
		tr, err := restTransport(&tt.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if err := tr.Preflight(context.Background()); err != nil {
			t.Fatalf("%s: preflight: %v", tt.name, err)
		}
		s, release := tr.NewSender()
		for kind := range tt.want {
			var o transport.Outcome
			s.Send(&transport.Request{Seq: int64(kind), Due: time.Now(), Kind: kind, Body: []byte("{}")}, &o)
			if name := o.Class.Name(int(o.Code)); name != tt.class {
				t.Errorf("%s: kind %d: class %s, want %s", tt.name, kind, name, tt.class)
			}
		}
		release()
		tr.Close()
		mu.Lock()
		if len(got) != len(tt.want) {
			t.Errorf("%s: target saw %d requests %+v, want %+v", tt.name, len(got), got, tt.want)
		}
		for i := range min(len(got), len(tt.want)) {
			if got[i] != tt.want[i] {
				t.Errorf("%s: request %d: %+v, want %+v", tt.name, i, got[i], tt.want[i])
			}
		}
		mu.Unlock()
	}
}
