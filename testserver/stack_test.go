package testserver

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	hvemu "github.com/vesload/vesload/testserver/hv"
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
