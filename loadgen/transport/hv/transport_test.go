package hv

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// TestTransportBehindTheEngine runs 3 producers × 40 messages through the
// engine's open model and transport seam: the emulator gets every message,
// one producer's share per source, and no eventId twice.
func TestTransportBehindTheEngine(t *testing.T) {
	s := emulator(t, hvemu.Options{})
	cfg := Config{Addr: s.Addr(), Producers: 3, Messages: 40, Size: 2048, Interval: 6 * time.Millisecond, RunID: "eng"}
	tr, err := NewTransport(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rate := float64(cfg.Producers) / cfg.Interval.Seconds()
	sched, err := engine.NewSchedule(engine.Segment{From: rate, To: rate, Duration: 40 * cfg.Interval})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Load: sched, Body: frames{},
		Pool: 4 * cfg.Producers, PoolWait: time.Second, Timeout: 5 * time.Second, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
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
	tr, err := NewTransport(Config{Addr: addr, Producers: 1, Messages: 4, Size: 1024, Interval: time.Millisecond, RunID: "x"})
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
	if o.Class != transport.Disconnected || tr.dialErrors[result.ClassConnRefused] != 1 {
		t.Errorf("class %v, dial errors %v; want disconnected after a refused dial", o.Class.Name(0), tr.dialErrors)
	}
	snd.Send(&transport.Request{Seq: 1, Due: time.Now()}, &o)
	if o.Class != transport.Disconnected || tr.dialErrors[result.ClassConnRefused] != 1 {
		t.Errorf("class %v, dial errors %v; want disconnected without a dial during the back-off", o.Class.Name(0), tr.dialErrors)
	}
	s := emulator(t, hvemu.Options{Addr: addr}) // now something listens: the next send after the back-off connects
	tr.conns[0].nextDial = time.Time{}
	snd.Send(&transport.Request{Seq: 2, Due: time.Now()}, &o)
	if o.Class != transport.Disconnected {
		t.Errorf("class %v: the message that re-made the connection was due while it was down", o.Class.Name(0))
	}
	snd.Send(&transport.Request{Seq: 3, Due: time.Now()}, &o)
	if o.Class != transport.OK || o.BytesSent != 1024+12 {
		t.Errorf("after the collector came up: class %s, %d bytes", o.Class.Name(0), o.BytesSent)
	}
	tr.Close()
	if st := waitReceived(t, s, 1); st.Accepted != 1 {
		t.Errorf("emulator accepted %d", st.Accepted)
	}
}
