package hv

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/report/result"
)

func TestNewCollectorFollowerRefusesURLs(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"", "collector:8080/metrics", "ftp://collector/metrics", "http://", "://x"} {
		if _, err := NewCollectorFollower(raw, tlsconf.Options{}, nil); !errors.Is(err, ErrMetricsURL) {
			t.Errorf("NewCollectorFollower(%q): %v, want ErrMetricsURL", raw, err)
		}
	}
}

// The follower counts what the collector received from the scrape before
// the run to the one after it, and names the endpoint without its
// credentials.
func TestCollectorFollowerFinish(t *testing.T) {
	t.Parallel()
	var received atomic.Int64
	received.Store(100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := received.Load()
		fmt.Fprintf(w, "hvves_messages_received_total %d\nhvves_messages_sent_total %d\n", n, n)
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://user:secret@", 1) + "/metrics"
	c, err := NewCollectorFollower(u, tlsconf.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	received.Add(40)
	var res result.Result
	res.HV = &result.HV{}
	warnings := c.Finish(&res, 50, time.Nanosecond)
	rc := res.HV.Receiver
	if rc == nil || rc.Received != 40 || rc.Lost != 10 || strings.Contains(rc.Source, "secret") || !strings.HasPrefix(rc.Source, "metrics:") {
		t.Fatalf("receiver %+v", rc)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "still rising") {
		t.Errorf("warnings %q, want the count still rising", warnings)
	}
	c.Stop() // again: no effect
}

func TestCollectorFollowerStartFails(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, err := NewCollectorFollower(srv.URL, tlsconf.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err == nil {
		t.Fatal("Start against a 404: no error")
	}
	c.Stop()
	var nilFollower *CollectorFollower
	nilFollower.Stop()
	if w := nilFollower.Finish(&result.Result{}, 1, 0); w != nil {
		t.Errorf("nil follower warnings %q", w)
	}
}
