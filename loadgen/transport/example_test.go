package transport_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
)

// memory is the smallest protocol: a "target" in the process that takes
// every payload and refuses every tenth. A real one (loadgen/transport/rest,
// loadgen/transport/hv) owns connections; the seam is the same.
type memory struct{ taken atomic.Int64 }

func (m *memory) Preflight(context.Context) error { return nil } // fail here, before the clock starts
func (m *memory) Warm(int)                        {}
func (m *memory) Close()                          {}

func (m *memory) NewSender() (transport.Sender, func()) { return memorySender{m}, func() {} }

type memorySender struct{ m *memory }

// Send fills the outcome without allocating: written, done, bytes, and a
// class of the taxonomy (a status of the protocol's own in Code).
func (s memorySender) Send(r *transport.Request, o *transport.Outcome) {
	o.Written = time.Now()
	o.BytesSent = int64(len(r.Body))
	if s.m.taken.Add(1)%10 == 0 {
		o.Class, o.Code = transport.HTTP, 503
	} else {
		o.Class, o.Code = transport.OK, 202
	}
	o.Done = time.Now()
}

// payload renders request seq's body into a reused buffer.
type payload struct{}

func (payload) AppendBody(dst []byte, seq uint64, _ time.Time) []byte {
	return fmt.Appendf(dst, `{"seq":%d}`, seq)
}

// Example_addAProtocol is the recipe for a new protocol: a package with a
// transport.Transport (here memory) that the command builds and hands the
// engine in its Config; the engine keeps the schedule, the pool, the
// accounting and every output, and knows nothing of the wire. Its own
// figures go in a section of the result (engine.ResultSection), and its
// gates' names are declared once in report/result/metric (a file beside
// rest.go and hv.go, listed in All), which thresholds, compare, trend and
// the verdict read.
func Example_addAProtocol() {
	load, err := engine.Constant(200, 500*time.Millisecond) // 100 requests
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := engine.New(engine.Config{Load: load, Body: payload{}, Pool: 4, PoolWait: time.Second,
		Timeout: time.Second, Transport: &memory{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eng.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("sent %d, ok %d, errors %v\n", res.Requests.Sent, res.Requests.OK, res.Errors)
	// Output: sent 100, ok 90, errors map[http_503:10]
}
