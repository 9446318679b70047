package hv

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport/hv/wtp"
)

// sequenceRecorder is a collector that reads slowly (back-pressure, so
// that the engine's workers queue on each producer) and keeps the
// sequence numbers of the messages of each connection, in the order
// they arrived.
type sequenceRecorder struct {
	ln   net.Listener
	mu   sync.Mutex
	seqs [][]uint32
	wg   sync.WaitGroup
}

func newSequenceRecorder(t *testing.T) *sequenceRecorder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &sequenceRecorder{ln: ln}
	r.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.seqs = append(r.seqs, nil)
			i := len(r.seqs) - 1
			r.mu.Unlock()
			r.wg.Go(func() { r.read(c, i) })
		}
	})
	t.Cleanup(func() { ln.Close(); r.wg.Wait() })
	return r
}

func (r *sequenceRecorder) read(c net.Conn, i int) {
	defer c.Close()
	d := wtp.NewDecoder(wtp.MaxPayload)
	buf := make([]byte, 16<<10)
	for {
		n, err := c.Read(buf)
		d.Write(buf[:n])
		for {
			f, ok, ferr := d.Next()
			if ferr != nil || !ok {
				break
			}
			if h, _, err := wtp.DecodeEvent(f.Payload); err == nil {
				r.mu.Lock()
				r.seqs[i] = append(r.seqs[i], h.Sequence)
				r.mu.Unlock()
			}
		}
		if err != nil { // io.EOF at the end of the run, or the listener's close
			return
		}
		time.Sleep(2 * time.Millisecond) // a slow reader: writes block
	}
}

// A producer writes its messages in their order, however far behind it
// is: the engine's workers that wait on one producer take its messages
// in turn (a lock alone would let a later message overtake an earlier
// one, and the collector would see the producer's sequence go back).
func TestProducerWritesInOrderUnderBackPressure(t *testing.T) {
	t.Parallel()
	rec := newSequenceRecorder(t)
	cfg := Config{Addr: rec.ln.Addr().String(), Producers: 2, Messages: 300, Size: 32768,
		Interval: time.Millisecond, RunID: "order", ProbeWait: -1}
	r, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests.OK != 600 {
		t.Fatalf("requests %+v errors %v", r.Requests, r.Errors)
	}
	if r.Generator.MaxInFlight < 3 {
		t.Skipf("at most %d messages in flight: no producer was behind, so nothing could overtake", r.Generator.MaxInFlight)
	}
	rec.ln.Close()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for c, seqs := range rec.seqs {
		for k := 1; k < len(seqs); k++ {
			if seqs[k] != seqs[k-1]+1 {
				t.Errorf("connection %d: message %d came after message %d", c, seqs[k], seqs[k-1])
				break
			}
		}
	}
}
