package hv

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	hvemu "github.com/vesload/vesload/testserver/hv"
)

// sink accepts connections and discards what they send: a plain TCP
// receiver with no HV-VES work, for the producer's own ceiling.
func sink(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	b.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { io.Copy(io.Discard, c); c.Close() })
		}
	})
	return ln.Addr().String()
}

// benchProducer sends b.N messages of 8 KiB from one producer through
// the engine as fast as it can (every message due at once: a rate of one
// a nanosecond): ns/op is the cost of one message on the engine's whole
// path (dispatcher, pool waiter, worker, transport, recorder, timeline),
// and allocs/op shows that path allocates nothing per message (the
// set-up is spread over b.N).
func benchProducer(b *testing.B, addr string) {
	cfg := Config{Addr: addr, Producers: 1, Messages: b.N, Size: 8192, Interval: time.Nanosecond, RunID: "bench", ProbeWait: -1}
	b.SetBytes(8192 + 12)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	r, err := run(context.Background(), cfg)
	cpu = processCPU() - cpu
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if err != nil {
		b.Fatal(err)
	}
	if r.HV.Sent.Written != int64(b.N) {
		b.Fatalf("wrote %d of %d: %+v %v", r.HV.Sent.Written, b.N, r.Requests, r.Errors)
	}
}
func BenchmarkProducerToSink(b *testing.B) { benchProducer(b, sink(b)) }

func BenchmarkProducerToEmulator(b *testing.B) {
	s, err := hvemu.Start(hvemu.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	benchProducer(b, s.Addr())
}
