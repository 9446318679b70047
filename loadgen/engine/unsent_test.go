package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// halfDown is a transport whose odd requests find their connection down
// (disconnected) and whose even ones succeed; it contributes a section
// that records what it saw of the engine's result.
type halfDown struct {
	stubTransport
	final   atomic.Bool
	section result.Requests
}

func (h *halfDown) NewSender() (transport.Sender, func()) { return h, func() {} }

func (h *halfDown) Send(r *transport.Request, o *transport.Outcome) {
	o.Written = time.Now()
	o.Done = o.Written.Add(time.Microsecond)
	o.Class, o.BytesSent = transport.OK, 10
	if r.Seq%2 == 1 {
		o.Class, o.BytesSent = transport.Disconnected, 0
	}
}

func (h *halfDown) AddSection(res *result.Result, final bool) {
	if final {
		h.final.Store(true)
		h.section = res.Requests
	}
}

// TestUnsentOutcomes: a request the transport reports as never sent
// (disconnected) is an error that was not sent, in its due second, and
// the accounting holds; the transport's result section sees the final
// figures.
func TestUnsentOutcomes(t *testing.T) {
	t.Parallel()
	sched, err := Constant(1000, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	tr := &halfDown{}
	eng, err := New(Config{Load: sched, Body: emptyBody{}, Pool: 4, PoolWait: time.Second, Timeout: time.Second,
		Transport: tr, NoPreflight: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := res.Requests
	if q.Scheduled != 200 || q.Sent != 100 || q.OK != 100 || res.Errors[result.ClassDisconnected] != 100 ||
		res.Errors[result.ClassAborted] != 0 || res.Latency.Count != 100 {
		t.Errorf("requests %+v, errors %v, latencies %d", q, res.Errors, res.Latency.Count)
	}
	if err := res.AccountingError(); err != nil {
		t.Error(err)
	}
	var errs int64
	for _, s := range res.Timeline {
		errs += s.ErrorsByClass[result.ClassDisconnected]
	}
	if errs != 100 {
		t.Errorf("the timeline has %d disconnected, the run 100", errs)
	}
	if !tr.final.Load() || tr.section != q {
		t.Errorf("section saw %+v (final %v), the result has %+v", tr.section, tr.final.Load(), q)
	}
}

type emptyBody struct{}

func (emptyBody) AppendBody(dst []byte, _ uint64, _ time.Time) []byte { return dst }
