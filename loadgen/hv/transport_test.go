package hv

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/transport"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// noBody renders nothing: the transport encodes its own frames.
type noBody struct{}

func (noBody) AppendBody(dst []byte, _ uint64, _ time.Time) []byte { return dst }

// TestTransportBehindTheEngine runs 3 producers × 40 messages through the
// engine's open model and transport seam: the emulator gets every message,
// one producer's share per source, and no eventId twice.
func TestTransportBehindTheEngine(t *testing.T) {
	s := emulator(t, hvemu.Options{})
	cfg := Config{Addr: s.Addr(), Producers: 3, Size: 2048, Interval: 6 * time.Millisecond, RunID: "eng"}
	tr, err := NewTransport(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rate := float64(cfg.Producers) / cfg.Interval.Seconds()
	sched, err := loadgen.NewSchedule(loadgen.Segment{From: rate, To: rate, Duration: 40 * cfg.Interval})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := loadgen.New(loadgen.Config{URL: "tcp://" + s.Addr(), Load: sched, Body: noBody{},
		Pool: 4 * cfg.Producers, PoolWait: time.Second, Timeout: 5 * time.Second, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if res.Requests.Scheduled != 120 || res.Requests.OK != 120 || res.Bytes.Sent != 120*(2048+12) {
		t.Fatalf("engine counted %+v, %d bytes, errors %v", res.Requests, res.Bytes.Sent, res.Errors)
	}
	st := waitReceived(t, s, 120)
	if st.Accepted != 120 || st.DuplicateEventIDs != 0 || st.BySource["vesload-hv-0"] != 40 || st.BySource["vesload-hv-2"] != 40 {
		t.Errorf("emulator accepted %d, duplicates %d, by source %v", st.Accepted, st.DuplicateEventIDs, st.BySource)
	}
}

func TestTransportClassifiesAndReconnects(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tr, err := NewTransport(Config{Addr: addr, Producers: 1, Size: 1024, Interval: time.Millisecond, RunID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Preflight(context.Background()); err == nil {
		t.Fatal("preflight to a closed port passed")
	}
	snd, release := tr.NewSender()
	defer release()
	var o transport.Outcome
	snd.Send(&transport.Request{Seq: 0, Due: time.Now()}, &o)
	if o.Class != transport.Refused {
		t.Errorf("class %v, want conn_refused", o.Class.Name(0))
	}
	s := emulator(t, hvemu.Options{Addr: addr}) // now something listens: the next send connects
	snd.Send(&transport.Request{Seq: 1, Due: time.Now()}, &o)
	if o.Class != transport.OK || o.BytesSent != 1024+12 {
		t.Errorf("after the collector came up: class %s, %d bytes", o.Class.Name(0), o.BytesSent)
	}
	tr.Close()
	if st := waitReceived(t, s, 1); st.Accepted != 1 {
		t.Errorf("emulator accepted %d", st.Accepted)
	}
}
