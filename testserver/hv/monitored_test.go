package hv

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := Options{Addr: "127.0.0.1:0", IdleTimeout: DefaultIdleTimeout, MaxPayload: MaxPayload}
	tests := []struct {
		name string
		edit func(o *Options)
		want string // "" when valid
	}{
		{"defaults", func(*Options) {}, ""},
		{"not run", func(o *Options) { o.Addr = "" }, ""},
		{"TLS", func(o *Options) { o.TLSCertFile, o.TLSKeyFile, o.ClientCAFile = "c", "k", "ca" }, ""},
		{"TLS without a listener", func(o *Options) { o.Addr, o.TLSCertFile = "", "c" }, "--hv-tls-cert, --hv-tls-key and --hv-client-ca need --hv-listen"},
		{"CA without a listener", func(o *Options) { o.Addr, o.ClientCAFile = "", "ca" }, "need --hv-listen"},
		{"cert without key", func(o *Options) { o.TLSCertFile = "c" }, "--hv-tls-cert and --hv-tls-key: give both"},
		{"key without cert", func(o *Options) { o.TLSKeyFile = "k" }, "give both"},
		{"CA without TLS", func(o *Options) { o.ClientCAFile = "ca" }, "--hv-client-ca needs --hv-tls-cert and --hv-tls-key"},
		{"no idle timeout", func(o *Options) { o.IdleTimeout = 0 }, "--hv-idle-timeout: want a positive duration, got 0s"},
		{"negative read rate", func(o *Options) { o.ReadRate = -1 }, "--hv-read-rate: must not be negative, got -1"},
		{"negative process rate", func(o *Options) { o.ProcessRate = -1 }, "--hv-process-rate: want 0 or more messages a second, got -1"},
		{"payload 0", func(o *Options) { o.MaxPayload = 0 }, fmt.Sprintf("--hv-max-payload: want 1 to %d, got 0", MaxPayload)},
		{"payload too large", func(o *Options) { o.MaxPayload = MaxPayload + 1 }, "--hv-max-payload"},
	}
	for _, tt := range tests {
		o := ok
		tt.edit(&o)
		err := o.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
	}
}

// A monitored emulator says where it listens, serves its counters on the
// monitoring address and sums them up when it closes.
func TestMonitored(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	m, err := StartMonitored(Options{Logf: logf}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", m.Addr())
	if err != nil {
		t.Fatal(err)
	}
	conn.Write(message(1, "p", 100))
	conn.Close()
	waitFor(t, m.srv, "one message", func(st Stats) bool { return st.Accepted == 1 })
	if body := get(t, "http://"+m.MonitorAddr()+"/metrics"); !strings.Contains(body, "hvves_messages_received_total 1\n") {
		t.Errorf("/metrics: %s", body)
	}
	m.Close()
	mu.Lock()
	got := strings.Join(lines, "\n")
	mu.Unlock()
	for _, want := range []string{
		"HV-VES emulator on " + m.Addr() + " (TCP); /stats and /metrics on http://" + m.MonitorAddr(),
		"HV-VES: 1 connections, 1 messages received (1 accepted, 0 dropped), 0 duplicate event ids, 0 clients rejected",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log %q: want %q", got, want)
		}
	}
	if _, err := StartMonitored(Options{}, "256.0.0.1:1"); err == nil || !strings.HasPrefix(err.Error(), "--hv-monitor: ") {
		t.Errorf("a monitor address that cannot be listened on: %v", err)
	}
}
