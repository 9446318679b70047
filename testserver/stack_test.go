package testserver

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	hvemu "github.com/vesload/vesload/testserver/hv"
	"github.com/vesload/vesload/testserver/publish"
)

// A stack with the HV-VES emulator and the sink announces every address
// once all listen, serves them until its context ends, then closes them.
func TestRunStack(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addrs, 1)
	done := make(chan error, 1)
	var sinkLine string
	go func() {
		done <- RunStack(ctx, Options{Addr: "127.0.0.1:0", Compat: CompatV72},
			Stack{HV: hvemu.Options{Addr: "127.0.0.1:0"}, HVMonitor: "127.0.0.1:0", Sink: "127.0.0.1:0"},
			RunOptions{Logf: func(format string, _ ...any) {
				if strings.HasPrefix(format, "throughput sink") {
					sinkLine = format
				}
			}}, func(a Addrs) { ready <- a })
	}()
	a := <-ready
	if a.URL == "" || a.HV == "" || a.HVMonitor == "" || a.Kafka != "" {
		t.Fatalf("addresses %+v", a)
	}
	resp, err := http.Get(a.URL + "/healthcheck")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	conn, err := net.Dial("tcp", a.HV)
	if err != nil {
		t.Fatalf("HV-VES emulator: %v", err)
	}
	conn.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("RunStack: %v", err)
	}
	if sinkLine == "" {
		t.Error("no line names the sink")
	}
	if _, err := net.Dial("tcp", a.HV); err == nil {
		t.Error("the HV-VES emulator still listens after the stack ended")
	}
}

// A listener that cannot start is the error, named by its flag.
func TestRunStackSinkFails(t *testing.T) {
	t.Parallel()
	err := RunStack(context.Background(), Options{Addr: "127.0.0.1:0"}, Stack{Sink: "127.0.0.1:99999"}, RunOptions{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "--sink: ") {
		t.Errorf("RunStack: %v, want the sink's error", err)
	}
}

// Prepare settles compat kafka and the seed for the stack, then checks
// the input, the publisher and the HV-VES emulator in that order.
func TestStackPrepare(t *testing.T) {
	t.Parallel()
	base := Input{Options: Options{Compat: CompatV72, BackendPool: DefaultBackendPool, Streams: DefaultStreams}}
	pub := publish.Config{Buffer: publish.DefaultBuffer, MaxBlock: publish.DefaultMaxBlock}
	hv := hvemu.Options{IdleTimeout: hvemu.DefaultIdleTimeout, MaxPayload: hvemu.MaxPayload}
	tests := []struct {
		name string
		edit func(in *Input, s *Stack)
		want string // "" when valid
		ok   func(in Input, s Stack, o Options) bool
	}{
		{"defaults draw a seed", func(*Input, *Stack) {}, "", func(in Input, s Stack, o Options) bool {
			return in.Seed != 0 && s.Publish.Seed == in.Seed && o.Seed == in.Seed && !s.Publish.BeforeAck
		}},
		{"a given seed is kept", func(in *Input, _ *Stack) { in.Seed = 7 }, "", func(in Input, s Stack, o Options) bool {
			return in.Seed == 7 && s.Publish.Seed == 7 && o.Seed == 7
		}},
		{"kafka answers before the broker acknowledges", func(in *Input, s *Stack) { in.Compat, s.Publish.Embedded = "Kafka", "127.0.0.1:0" }, "",
			func(in Input, s Stack, o Options) bool { return o.Compat == CompatV72 && s.Publish.BeforeAck }},
		{"kafka without a broker", func(in *Input, _ *Stack) { in.Compat = CompatKafka }, "--compat kafka need --kafka-embedded or --publish", nil},
		{"legacy stays legacy", func(in *Input, _ *Stack) { in.Compat = CompatLegacy }, "", func(in Input, s Stack, o Options) bool {
			return o.Compat == CompatLegacy && !s.Publish.BeforeAck
		}},
		{"the input first", func(in *Input, s *Stack) { in.Compat, s.Publish.Drop = "v8", 2 }, "--compat: want v7.2, legacy or kafka", nil},
		{"then the publisher", func(_ *Input, s *Stack) { s.Publish.Drop = 2 }, "--publish-drop: ", nil},
		{"then the HV-VES emulator", func(_ *Input, s *Stack) { s.HV.Addr, s.HV.MaxPayload = "127.0.0.1:0", -1 }, "--hv-max-payload: ", nil},
	}
	for _, tt := range tests {
		in, s := base, Stack{Publish: pub, HV: hv}
		tt.edit(&in, &s)
		o, err := s.Prepare(&in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		case tt.ok != nil && err == nil && !tt.ok(in, s, o):
			t.Errorf("%s: input %+v stack %+v options %+v", tt.name, in, s, o)
		}
	}
}
