package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// Engine runs one load test. Create it with New, then call Run once.
type Engine struct {
	cfg   Config
	facts modelFacts
	tr    transport.Transport
	kinds []Request   // the request mix; one kind without a mix
	clock clock.Clock // Config.Clock, or the system's

	c     counters
	lag   *lagMeter
	tl    *timeline
	rec   *recorder
	outs  outlets // the observers, each on a goroutine of its own during Run
	d     *dispatcher
	abort chan struct{}
	once  sync.Once
	// preflight is the preflight's request, when one was sent.
	preflight *result.Preflight
	// dispatched is set once the schedule stopped dispatching (its end,
	// or a stop): from then on the requests it did not send are not sent,
	// no longer not yet due.
	dispatched atomic.Bool
}

// New checks the configuration and prepares the client. It does not touch
// the network.
func New(cfg Config) (*Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if lf, ok := cfg.Transport.(transport.FailureLogger); ok && cfg.LogFailure != nil {
		lf.LogFailures(cfg.LogFailure)
	}
	e := &Engine{
		cfg:   cfg,
		facts: cfg.Load.facts(cfg.Pool),
		tr:    cfg.Transport,
		lag:   newLagMeter(),
		abort: make(chan struct{}),
		clock: clock.Default(cfg.Clock),
	}
	var err error
	if e.kinds, err = mixRequests(&e.cfg); err != nil {
		return nil, err
	}
	e.tl = newTimeline(e.facts.perSecond, e.facts.concurrency)
	e.tl.pool.split = splitsOutcomes(cfg.Observers)
	e.rec = newRecorder(cfg.Observers, len(e.kinds), e.facts.steps, e.tl)
	e.d = &dispatcher{
		clock:   e.clock,
		system:  isSystem(e.clock),
		pool:    cfg.Pool,
		pick:    pickTable(e.kinds),
		conns:   newConnPool(cfg.Pool),
		tickets: make([]ticket, cfg.Pool),
		abort:   e.abort,
		c:       &e.c, tl: e.tl, rec: e.rec, lag: e.lag,
	}
	if cfg.PoolWait > 0 {
		e.d.waiting = make(chan waitingJob, waitQueue(e.facts.peak, cfg.PoolWait))
	}
	e.rec.tickets = e.d.tickets
	return e, nil
}

// Preflight connects to the target once and, when the configuration
// says ProbeRequest and the transport can (transport.Prober), sends one
// real request: the first of the mix,
// rendered with transport.PreflightSeq so that it is recognisable and
// kept out of the run's figures. A target that refuses it for a cause the
// transport can name (a missing listener path, refused credentials)
// fails the preflight with a *transport.RefusedError saying so. Run
// calls it unless the configuration says NoPreflight.
func (e *Engine) Preflight(ctx context.Context) error {
	if err := e.tr.Preflight(ctx); err != nil {
		return err
	}
	p, ok := e.tr.(transport.Prober)
	if !ok || !e.cfg.ProbeRequest || e.cfg.Start != nil || !ShardOf(e.cfg.Load).Whole() || e.facts.total >= transport.PreflightSeq {
		// A shard sends nothing before its agreed start (a late one
		// sends nothing at all); the start-of-run rule judges it. A
		// schedule that reaches PreflightSeq would send its sequence
		// twice.
		return nil
	}
	req := transport.Request{Seq: transport.PreflightSeq, Due: e.clock.Now()}
	req.Body = appendBody(e.kinds[0].Body, nil, transport.PreflightSeq, 0, req.Due)
	var out transport.Outcome
	p.Probe(&req, &out)
	class := out.Class.Name(int(out.Code))
	e.preflight = &result.Preflight{Seq: transport.PreflightSeq, Outcome: class, Code: int(out.Code),
		MessageID: out.MessageID, ServiceMs: float64(out.Done.Sub(out.Written).Microseconds()) / 1000}
	if out.Class == transport.OK {
		return nil
	}
	// Only a refusal with a known cause stops the run here: one 503 or
	// timeout says nothing of the next request (the start-of-run rule
	// judges those on many).
	cause := p.Explain(class, out.MessageID)
	if cause == "" {
		return nil
	}
	if out.MessageID != "" {
		class += ", " + out.MessageID
	}
	return &transport.RefusedError{Why: fmt.Sprintf("preflight: the target refused a request of the run (%s): %s", class, cause)}
}

// Abort ends a run at once: requests in flight are not waited for and are
// counted as aborted. Run still returns what was recorded. It is safe to
// call more than once and from any goroutine.
func (e *Engine) Abort() {
	e.once.Do(func() { close(e.abort) })
}

// Run executes the load until it ends or ctx is cancelled, then drains
// requests in flight for up to the request timeout and returns the result.
// A cancelled ctx marks the result as interrupted and counts the requests
// that were never due as not sent; it is not an error.
func (e *Engine) Run(ctx context.Context) (*result.Result, error) {
	if !e.cfg.NoPreflight {
		if err := e.Preflight(ctx); err != nil {
			return nil, err
		}
	}
	// Connections and workers are made ready before the clock starts, so
	// that the first second measures the target, not vesload's set-up.
	e.tr.Warm(e.facts.warm)
	defer e.tr.Close()
	var workers, ready sync.WaitGroup
	var start time.Time
	begin := make(chan struct{})
	for i := range e.cfg.Pool {
		workers.Add(1)
		ready.Add(1)
		go func() {
			defer workers.Done()
			e.work(uint64(i), &ready, begin, &start)
		}()
	}
	self := e.selfSampler() // before the start: opening it takes milliseconds
	ready.Wait()
	start, offset, err := e.startAt(ctx)
	if err != nil {
		e.d.conns.close()
		close(begin)
		workers.Wait()
		return nil, err
	}
	e.d.start, e.rec.started = start, start
	e.rec.obs.begin(start)
	e.outs = startOutlets(e.cfg.Observers)
	tk := e.newTicker(start, self)
	close(begin)
	go tk.loop()

	var waiter sync.WaitGroup
	if e.d.waiting != nil {
		waiter.Add(1)
		go func() {
			defer waiter.Done()
			e.d.waitForConnections(ctx, e.cfg.PoolWait)
		}()
	}
	interrupted := e.cfg.Load.dispatch(ctx, e.d)
	e.dispatched.Store(true)
	e.tl.passed()
	if e.d.waiting != nil {
		close(e.d.waiting)
		waiter.Wait()
	}
	e.d.conns.close()
	e.drain(&workers)
	tk.stop()
	ended := e.clock.Now()
	final, last := e.rec.finish(ended, tk.led)
	e.outs.publish(last)
	lost := e.outs.close(outputDrain)
	return e.final(tk, final, ended, interrupted, lost, offset), nil
}

// drain waits for the requests in flight: each is bounded by the request
// timeout, so the wait is too; Abort cuts it short.
func (e *Engine) drain(workers *sync.WaitGroup) {
	done := make(chan struct{})
	go func() {
		workers.Wait()
		close(done)
	}()
	limit := e.clock.NewTimer(e.cfg.Timeout + time.Second)
	defer limit.Stop()
	select {
	case <-done:
	case <-e.abort:
	case <-limit.C():
	}
}

// appendBody renders request seq, sent by worker, into dst: with the
// worker's own data row when the body binds rows per worker.
func appendBody(b Body, dst []byte, seq, worker uint64, due time.Time) []byte {
	if wb, ok := b.(WorkerBody); ok {
		return wb.AppendBodyFor(dst, seq, worker, due)
	}
	return b.AppendBody(dst, seq, due)
}

// work is one connection's loop: render, send, record. Worker i owns
// the pool's token i and the transport's sender it makes, with that
// sender's connection. Its buffers are
// reused, so a request costs no allocation in steady state.
func (e *Engine) work(worker uint64, ready *sync.WaitGroup, begin <-chan struct{}, startAt *time.Time) {
	snd, release := e.tr.NewSender()
	defer release()
	var (
		req transport.Request
		out transport.Outcome
	)
	r := new(record) // its event goes to the observers: one per worker, reused

	req.Body = make([]byte, 0, 16<<10)
	ready.Done()
	<-begin
	start := *startAt
	for j := range e.d.conns.inbox[worker] {
		req.Seq, req.Due, req.Kind = j.seq, j.due, int(j.kind)
		req.Body = appendBody(e.kinds[j.kind].Body, req.Body[:0], uint64(j.seq), worker, j.due)
		flight := e.c.inFlight.Add(1)
		snd.Send(&req, &out)
		e.c.inFlight.Add(-1)
		if out.Class.NeverSent() {
			// The transport found the request's connection down: it was
			// never sent. Uncounted before it is recorded, so that a
			// snapshot sees it either as not sent or as unsent, never as
			// sent without an outcome (docs/ARCHITECTURE.md, "Accounting").
			e.c.sent.Add(-1)
		}
		*r = record{
			seq:     j.seq,
			flight:  flight,
			kind:    j.kind,
			step:    j.step,
			dueNs:   j.due.Sub(start).Nanoseconds(),
			latency: out.Done.Sub(j.due).Nanoseconds(),
			service: out.Done.Sub(out.Written).Nanoseconds(),
			sent:    out.BytesSent,
			recv:    out.BytesRecv,
			connect: out.Connect.Nanoseconds(),
			ttfb:    firstByte(&out),
			code:    out.Code,
			class:   out.Class,
			msgID:   out.MessageID,
			token:   j.token,
			held:    true,
		}
		// Recorded before the token goes back: until then the ticket says
		// the request is in flight, so an abort's count is exact.
		e.rec.record(r)
		e.d.conns.give(j.token)
	}
}

// firstByte is the time from the hand-over of a request to the first byte
// of its answer, 0 when none arrived.
func firstByte(o *transport.Outcome) int64 {
	if o.FirstByte.IsZero() {
		return 0
	}
	return max(o.FirstByte.Sub(o.Written).Nanoseconds(), 0)
}

// String describes the engine for logs, without credentials.
func (e *Engine) String() string {
	if t, ok := e.tr.(fmt.Stringer); ok {
		return fmt.Sprintf("vesload engine → %s (pool %d)", t, e.cfg.Pool)
	}
	return fmt.Sprintf("vesload engine (pool %d)", e.cfg.Pool)
}
