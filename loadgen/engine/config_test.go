package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

// TestValidateTransport: the engine builds no transport of its own, so a
// Config without one is an error that says so, and a plugged-in Transport
// takes its own address (the http/https check is the REST transport's,
// see package rest's TestNewTarget).
func TestValidateTransport(t *testing.T) {
	t.Parallel()
	sched, err := Constant(10, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url      string
		plugged  bool
		errMatch string
	}{
		{errMatch: "no transport"},
		{plugged: true}, // a Transport takes its own address: the engine knows none
	}
	for _, tt := range tests {
		c := Config{Load: sched, Body: seqBody{}, Pool: 1, Timeout: time.Second}
		if tt.plugged {
			c.Transport = stubTransport{}
		}
		e, err := New(c)
		if (err == nil) != (tt.errMatch == "") || (err != nil && !strings.Contains(err.Error(), tt.errMatch)) {
			t.Errorf("transport plugged in: %v: error %v, want %q", tt.plugged, err, tt.errMatch)
		}
		if err != nil && e != nil {
			t.Errorf("%s: an engine beside error %v", tt.url, err)
		}
	}
}

// stubTransport is a Transport that is never used to send.
type stubTransport struct{}

func (stubTransport) Preflight(context.Context) error       { return nil }
func (stubTransport) Warm(int)                              {}
func (stubTransport) NewSender() (transport.Sender, func()) { return nil, func() {} }
func (stubTransport) Close()                                {}

// loggingTransport is a stubTransport that can log its failures.
type loggingTransport struct {
	stubTransport
	log func(string)
}

func (l *loggingTransport) LogFailures(log func(string)) { l.log = log }

// New tells a transport that logs failures where the run's failure log
// is; without one it leaves the transport alone.
func TestNewHandsTheFailureLog(t *testing.T) {
	t.Parallel()
	sched, err := Constant(10, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, withLog := range []bool{true, false} {
		tr := &loggingTransport{}
		var logged []string
		c := Config{Load: sched, Body: seqBody{}, Pool: 1, Timeout: time.Second, Transport: tr}
		if withLog {
			c.LogFailure = func(s string) { logged = append(logged, s) }
		}
		if _, err := New(c); err != nil {
			t.Fatal(err)
		}
		if (tr.log != nil) != withLog {
			t.Fatalf("with a failure log %v: transport told %v", withLog, tr.log != nil)
		}
		if withLog {
			tr.log("first 503")
			if len(logged) != 1 || logged[0] != "first 503" {
				t.Errorf("logged %q", logged)
			}
		}
	}
}

// TestConfigNamesNoProtocol: where and how a request goes is the
// transport's (docs/ARCHITECTURE.md, "Packages"); a field of one protocol
// in the engine's configuration would be mapped twice and read by
// nobody.
func TestConfigNamesNoProtocol(t *testing.T) {
	t.Parallel()
	protocol := []string{"URL", "Method", "Headers", "User", "Password", "TLS", "Expect", "KeepAlive", "UserAgent", "Dial"}
	for _, typ := range []reflect.Type{reflect.TypeFor[Config](), reflect.TypeFor[Request]()} {
		for _, name := range protocol {
			if _, ok := typ.FieldByName(name); ok {
				t.Errorf("engine.%s has a field %s: it belongs to the transport's options", typ.Name(), name)
			}
		}
	}
}
