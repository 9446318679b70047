package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func sec(t int64, ok, refused int64) result.Second {
	s := result.Second{T: t, Scheduled: ok + refused, Sent: ok + refused, OK: ok, Errors: refused}
	if refused > 0 {
		s.ErrorsByClass = map[string]int64{"conn_refused": refused}
	}
	return s
}

func TestRefusedWarning(t *testing.T) {
	tests := []struct {
		name     string
		timeline []result.Second
		want     string // "" for no warning, else a part of it
	}{
		{"healthy", []result.Second{sec(0, 10, 0), sec(1, 10, 0)}, ""},
		{"died at 2 s", []result.Second{sec(0, 10, 0), sec(1, 10, 0), sec(2, 3, 7), sec(3, 0, 10)},
			"the target refused connections from 2 s into the run to its end (17 conn_refused)"},
		{"came back", []result.Second{sec(0, 10, 0), sec(1, 0, 10), sec(2, 10, 0)},
			"the target refused connections from 1 s into the run (10 conn_refused); it answered again from 2 s"},
		{"refused from the start", []result.Second{sec(0, 0, 10), sec(1, 0, 10)},
			"the target refused connections from 0 s into the run to its end (20 conn_refused)"},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := refusedWarning(tt.timeline)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("refusedWarning = %q, want %q", got, tt.want)
			}
		})
	}
}

// A target that dies mid-run is named in the warnings.
func TestTargetDeathIsWarned(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	kill := time.AfterFunc(1200*time.Millisecond, func() {
		srv.CloseClientConnections()
		srv.Listener.Close()
		srv.CloseClientConnections()
	})
	defer kill.Stop()
	cfg := testConfig(t, srv.URL, 20, 2500*time.Millisecond)
	cfg.REST.KeepAlive = false
	res := run(t, cfg)
	if res.Errors["conn_refused"] == 0 {
		t.Fatalf("no conn_refused after the target died: %v", res.Errors)
	}
	found := false
	for _, w := range res.Warnings {
		found = found || strings.HasPrefix(w, "the target refused connections from 1 s")
	}
	if !found {
		t.Errorf("warnings %q do not name the target's death", res.Warnings)
	}
}
