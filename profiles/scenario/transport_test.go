package scenario

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles"
)

// TestPlanTransportCarriesTheRun: the transport a compiled plan hands the
// engine sends what the scenario says: each kind of the mix to its own
// path with its own headers beside the target's, the method, user agent,
// basic credentials and the expected statuses; and it takes the pool and
// timeout the engine will run with.
func TestPlanTransportCarriesTheRun(t *testing.T) {
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
	base := srv.URL + "/eventListener/v7"
	env := func(name string) (string, bool) { return "pw", name == "VES_PASSWORD" }
	tests := []struct {
		name    string
		profile func() *profiles.Profile
		want    []seen
		class   string // of every answer (202)
	}{
		{
			name: "one request",
			profile: func() *profiles.Profile {
				p := commandLine(base)
				p.Target.Method, p.Target.Headers = http.MethodPut, map[string]string{"X-Run": "r1"}
				return p
			},
			want:  []seen{{http.MethodPut, "/eventListener/v7", "vesload/test", "", "r1", ""}},
			class: "ok",
		},
		{
			name: "mix with credentials and expected status",
			profile: func() *profiles.Profile {
				p := commandLine(base)
				p.Target.Headers = map[string]string{"X-Run": "r2"}
				p.Target.Auth = &profiles.Auth{User: "ves", PasswordEnv: "VES_PASSWORD"}
				p.Target.ExpectStatus = []string{"200"}
				p.Requests = []profiles.Request{
					{Name: "a", Weight: 1, Event: "fault", Headers: map[string]string{"X-Kind": "a"}},
					{Name: "b", Weight: 1, Event: "fault", Batch: 2, Headers: map[string]string{"X-Kind": "b"}},
				}
				return p
			},
			want: []seen{
				{http.MethodPost, "/eventListener/v7", "vesload/test", "Basic dmVzOnB3", "r2", "a"},
				{http.MethodPost, "/eventListener/v7/eventBatch", "vesload/test", "Basic dmVzOnB3", "r2", "b"},
			},
			class: "http_202", // ONAP's plans expect 202; here only 200 counts
		},
	}
	for _, tt := range tests {
		mu.Lock()
		got = nil
		mu.Unlock()
		pl, err := Compile(tt.profile(), Options{Version: "test", RunID: "r", LookupEnv: env})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		cfg := pl.Config
		cfg.Pool, cfg.Timeout = 1, 5*time.Second
		tr, err := pl.Transport(&cfg)
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
