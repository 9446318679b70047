package hv

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestReadStats reads the monitor's /stats as a run does, and names the
// monitor in its errors.
func TestReadStats(t *testing.T) {
	t.Parallel()
	s, k := newTestConn(Options{MaxPayload: 4096}, 100, time.Time{})
	k.reader.write(message(1, "p", 300))
	k.frames()
	mon := httptest.NewServer(s.Handler())
	t.Cleanup(mon.Close)
	broken := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(broken.Close)
	addr := func(u string) string { return strings.TrimPrefix(u, "http://") }
	tests := []struct {
		name     string
		addr     string
		received int64
		wantErr  string
	}{
		{"the emulator", addr(mon.URL), 1, ""},
		{"not a monitor", addr(broken.URL), 0, "built-in emulator /stats: 404"},
	}
	for _, tt := range tests {
		st, err := ReadStats(context.Background(), tt.addr)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || st.Received != tt.received {
			t.Errorf("%s: received %d (%v), want %d", tt.name, st.Received, err, tt.received)
		}
	}
	// Everything written was read: no wait.
	if st, err := AwaitStats(addr(mon.URL), 1, time.Hour); err != nil || st.Received != 1 {
		t.Errorf("AwaitStats: received %d (%v), want 1", st.Received, err)
	}
}
