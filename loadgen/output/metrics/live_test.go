package metrics

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLive checks that the live metrics are served at the address it
// reports, and gone once closed; bad options name their flag.
func TestLive(t *testing.T) {
	for _, c := range []struct {
		addr    string
		linger  int
		wantErr string
	}{
		{"127.0.0.1:0", -1, "--metrics-linger"},
		{"127.0.0.1:-1", 0, "--metrics-addr"},
	} {
		if _, err := StartLive(c.addr, time.Duration(c.linger)); err == nil || !strings.HasPrefix(err.Error(), c.wantErr) {
			t.Errorf("StartLive(%q, %d) error %v, want %q", c.addr, c.linger, err, c.wantErr)
		}
	}
	l, err := StartLive("127.0.0.1:0", 0)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{}
	if requestsTotal(t, client, "http://"+l.Addr+MetricsPath) != 0 {
		t.Error("a new exporter counts requests")
	}
	var notes []string
	l.Close(func(s string) { notes = append(notes, s) })
	if len(notes) != 0 {
		t.Errorf("notes %q without a linger", notes)
	}
	if _, err := client.Get("http://" + l.Addr + MetricsPath); err == nil {
		t.Error("still served after Close")
	}
	client.CloseIdleConnections()
}
