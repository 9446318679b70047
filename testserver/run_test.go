package testserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Compat: "V7.2"}, "compat v7.2"},
		{Options{Compat: "legacy", Auth: "u:secret"}, "compat legacy, basic auth"},
		{Options{Compat: "v7.2", Auth: "u:secret", AuthCost: 10, ClientCAFile: "ca.pem", HTTPAddr: ":8080"},
			"compat v7.2, basic auth (BCrypt cost 10), client certificates, HTTP port :8080 refused"},
		{Options{Compat: "v7.2", PublishTime: time.Millisecond, BackendPool: 4}, "compat v7.2, backend 4 connections + 8 queued, publish 1ms"},
		{Options{Compat: "v7.2", PublishTime: time.Millisecond, BackendPool: 4, BackendQueue: -1}, "compat v7.2, backend 4 connections + 0 queued, publish 1ms"},
		{Options{Compat: "v7.2", PublishTime: time.Millisecond, BackendPool: 4, BackendQueue: 3}, "compat v7.2, backend 4 connections + 3 queued, publish 1ms"},
		{Options{Compat: "v7.2", Latency: time.Millisecond, Jitter: time.Microsecond, Seed: 9}, "compat v7.2, latency 1ms±1µs, seed 9"},
		{Options{Compat: "v7.2", ErrorRate: 0.5, Seed: 3, Stall: time.Second, StallAt: 2 * time.Second, NoValidate: true},
			"compat v7.2, error rate 0.5, seed 3, stall 1s at 2s, no validation"},
	}
	for _, tt := range tests {
		if got := tt.o.Describe(); got != tt.want {
			t.Errorf("Describe(%+v) = %q, want %q", tt.o, got, tt.want)
		}
		if strings.Contains(tt.o.Describe(), "secret") {
			t.Errorf("Describe(%+v) shows the password", tt.o)
		}
	}
}

func TestStatsSummary(t *testing.T) {
	t.Parallel()
	st := Stats{Requests: 5, Accepted: 3, Rejected: 2, Events: 4, DuplicateEventIDs: 1, BackendRejected: 1, MaxInFlight: 2,
		ByStatus: map[int]int64{503: 1, 202: 3, 400: 1}}
	want := "stopped after 1.235s: 5 requests (3 accepted, 2 rejected), 4 events, 1 duplicate event ids, " +
		"1 backend rejections, max 2 in flight; by status: 202=3 400=1 503=1"
	if got := st.Summary(1234567 * time.Microsecond); got != want {
		t.Errorf("Summary:\n got %q\nwant %q", got, want)
	}
	st.AuthBasic, st.AuthCertificate = 2, 1
	if got := st.Summary(0); !strings.HasSuffix(got, "; auth: 2 basic, 1 certificate") {
		t.Errorf("Summary with auth: %q", got)
	}
}

// companion records what Run asks of it.
type companion struct {
	mu       sync.Mutex
	calls    []string
	closeErr error
}

func (c *companion) call(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, s)
}
func (c *companion) Describe() string { c.call("describe"); return "beside" }
func (c *companion) Summary() string  { c.call("summary"); return "beside done" }
func (c *companion) Close() error     { c.call("close"); return c.closeErr }

func TestRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var lines []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	clock := time.Unix(100, 0)
	now := func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock }
	c := &companion{closeErr: errors.New("flush failed")}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Compat: CompatV72, Logf: logf}, RunOptions{Companion: c, Logf: logf, Now: now,
			Ready: func(url string) { ready <- url }})
	}()
	url := <-ready
	resp, err := http.Get(url + "/healthcheck")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err == nil || err.Error() != "flush failed" {
		t.Errorf("Run: %v, want the companion's close error", err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(lines, "\n")
	for _, want := range []string{"VES collector emulator on " + url + "/eventListener/v7 (compat v7.2)", "\nbeside\n",
		"\nstopped after 1.5s: 1 requests (0 accepted, 0 rejected)", "by status: 200=1", "\nbeside done"} {
		if !strings.Contains(got, want) {
			t.Errorf("log %q: want %q", got, want)
		}
	}
	if strings.Join(c.calls, ",") != "describe,close,summary" {
		t.Errorf("companion calls %v", c.calls)
	}

	// A failed start closes the companion and reports the start's error.
	c2 := &companion{}
	err = Run(context.Background(), Options{Addr: "127.0.0.1:99999"}, RunOptions{Companion: c2})
	if err == nil || strings.Join(c2.calls, ",") != "close" {
		t.Errorf("bad address: %v, companion calls %v; want an error and one close", err, c2.calls)
	}
}
