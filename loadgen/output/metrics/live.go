package metrics

import (
	"context"
	"fmt"
	"net"
	"time"
)

// Live is vesload's own metrics served for the length of a run
// (--metrics-addr) and kept a while after it (--metrics-linger), so that
// the last scrape of a run is not lost.
type Live struct {
	*Exporter
	// Addr is the address it listens on (the port chosen when ":0").
	Addr   string
	stop   func(context.Context) error
	linger time.Duration
}

// StartLive listens on addr and serves a new Exporter's metrics there;
// errors name the option at fault.
func StartLive(addr string, linger time.Duration) (*Live, error) {
	if linger < 0 {
		return nil, fmt.Errorf("--metrics-linger %v: want 0 or a positive duration", linger)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %v", addr, err)
	}
	exp := New()
	return &Live{Exporter: exp, Addr: ln.Addr().String(), stop: exp.ServeListener(ln), linger: linger}, nil
}

// Close keeps serving for the linger, telling note so first, then shuts
// the server down, letting a scrape in progress finish within 5 s.
func (l *Live) Close(note func(string)) {
	if l.linger > 0 {
		note(fmt.Sprintf("serving metrics at http://%s/metrics for %v more", l.Addr, l.linger))
		time.Sleep(l.linger)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = l.stop(ctx)
}
