package loadgen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

func TestValidateURL(t *testing.T) {
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
		{url: "http://127.0.0.1:8080/eventListener/v7"},
		{url: "https://collector:8443/eventListener/v7"},
		{url: "ftp://collector/x", errMatch: "scheme must be http or https"},
		{url: "http:///eventListener/v7", errMatch: "no host"},
		{url: "tcp://127.0.0.1:6061", errMatch: "scheme must be http or https"},
		{url: "tcp://127.0.0.1:6061", plugged: true}, // a Transport takes its own address
	}
	for _, tt := range tests {
		c := Config{URL: tt.url, Load: sched, Body: seqBody{}, Pool: 1, Timeout: time.Second}
		if tt.plugged {
			c.Transport = stubTransport{}
		}
		err := c.validate()
		if (err == nil) != (tt.errMatch == "") || (err != nil && !strings.Contains(err.Error(), tt.errMatch)) {
			t.Errorf("%s (transport plugged in: %v): error %v, want %q", tt.url, tt.plugged, err, tt.errMatch)
		}
	}
}

// stubTransport is a Transport that is never used to send.
type stubTransport struct{}

func (stubTransport) Preflight(context.Context) error       { return nil }
func (stubTransport) Warm(int)                              {}
func (stubTransport) NewSender() (transport.Sender, func()) { return nil, func() {} }
func (stubTransport) Close()                                {}
