package loadgen

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/report/result"
)

// job is one due request handed from the dispatcher to a connection.
type job struct {
	seq  int64
	due  time.Time
	kind uint8  // index into Engine.kinds
	step uint16 // closed-model step
}

// Engine runs one load test. Create it with New, then call Run once.
type Engine struct {
	cfg    Config
	target target
	client *fasthttp.HostClient
	warm   *warmDialer
	header []Header  // cfg.Headers plus the Authorization header
	kinds  []Request // the request mix; one kind without a mix
	pick   []uint8   // request seq is of kind pick[seq % len(pick)]

	// slots holds one token per free connection: the dispatcher takes one
	// for each request it sends and the worker gives it back when the
	// response is in. jobs is buffered to the pool size, so a send after
	// taking a token never blocks.
	slots chan struct{}
	jobs  chan job

	abort     chan struct{}
	abortOnce sync.Once

	// Counters shared between the dispatcher, the workers and the
	// recorder; everything else has a single owner.
	attempted atomic.Int64 // due requests the dispatcher reached
	sent      atomic.Int64 // handed to a connection
	exhausted atomic.Int64 // refused for want of a connection
	lagMaxUs  atomic.Int64 // largest dispatch lag since the recorder last looked
	lagP50Us  atomic.Int64 // dispatch lag percentiles of the last whole second
	lagP99Us  atomic.Int64
	step      atomic.Int64 // the closed-model step under way
	inFlight  atomic.Int64 // requests on a connection right now

	lag     *hdrhistogram.Histogram // dispatch lag in µs over the run; owned by the dispatcher
	lagSec  *hdrhistogram.Histogram // the same for the current second
	lagRoll time.Time               // when lagSec is next summarised
	rec     *recorder
}

// New checks the configuration and prepares the client. It does not touch
// the network.
func New(cfg Config) (*Engine, error) {
	if cfg.Method == "" {
		cfg.Method = fasthttp.MethodPost
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "vesload"
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t, err := parseTarget(cfg.URL)
	if err != nil {
		return nil, err
	}
	tc, err := tlsConfig(cfg.TLS, t.host)
	if err != nil {
		return nil, err
	}
	dial := cfg.Dial
	if dial == nil {
		timeout := min(cfg.Timeout, 10*time.Second)
		dial = func(addr string) (net.Conn, error) { return fasthttp.DialTimeout(addr, timeout) }
	}
	warm := newWarmDialer(dial, cfg.Pool)
	e := &Engine{
		cfg:    cfg,
		target: t,
		warm:   warm,
		client: newHostClient(t, tc, &cfg, warm.Dial),
		slots:  make(chan struct{}, cfg.Pool),
		jobs:   make(chan job, cfg.Pool),
		abort:  make(chan struct{}),
		lag:    result.NewHistogram(),
		lagSec: result.NewHistogram(),
	}
	if e.kinds, err = mixRequests(&e.cfg); err != nil {
		return nil, err
	}
	e.pick = pickTable(e.kinds)
	e.header = append([]Header(nil), cfg.Headers...)
	if cfg.User != "" || cfg.Password != "" {
		token := base64.StdEncoding.EncodeToString([]byte(cfg.User + ":" + cfg.Password))
		e.header = append(e.header, Header{Name: "Authorization", Value: "Basic " + token})
	}
	for range cfg.Pool {
		e.slots <- struct{}{}
	}
	e.rec = newRecorder(e)
	return e, nil
}

// Preflight connects to the target once. Run calls it unless the
// configuration says NoPreflight.
func (e *Engine) Preflight(ctx context.Context) error {
	return preflight(ctx, e.target, e.client.TLSConfig, e.cfg.Timeout, e.cfg.Dial)
}

// Abort ends a run at once: requests in flight are not waited for and are
// counted as aborted. Run still returns what was recorded. It is safe to
// call more than once and from any goroutine.
func (e *Engine) Abort() {
	e.abortOnce.Do(func() { close(e.abort) })
}

// Run executes the schedule until it ends or ctx is cancelled, then drains
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
	e.warm.warm(e.target.addr, warmConnections(&e.cfg))
	defer e.warm.close()
	var workers, ready sync.WaitGroup
	var start time.Time // written before begin is closed, read after
	begin := make(chan struct{})
	for range e.cfg.Pool {
		workers.Add(1)
		ready.Add(1)
		go func() {
			defer workers.Done()
			e.work(&ready, begin, &start)
		}()
	}
	ready.Wait()
	start, offset, err := e.startAt(ctx)
	if err != nil {
		close(e.jobs)
		close(begin)
		workers.Wait()
		return nil, err
	}
	if e.cfg.Hooks.Start != nil {
		e.cfg.Hooks.Start(start)
	}
	e.rec.start(start)
	close(begin)
	recDone := make(chan struct{})
	go func() {
		e.rec.loop()
		close(recDone)
	}()

	var interrupted bool
	if e.cfg.Closed != nil {
		interrupted = e.dispatchClosed(ctx, start)
	} else {
		interrupted = e.dispatch(ctx, start)
	}
	close(e.jobs)
	e.drain(&workers)
	e.rec.finish()
	<-recDone
	e.client.CloseIdleConnections()

	res := e.rec.result(time.Now(), interrupted)
	e.markShard(res, offset)
	return res, nil
}

// drain waits for the requests in flight: each is bounded by the request
// timeout, so the wait is too; Abort cuts it short.
func (e *Engine) drain(workers *sync.WaitGroup) {
	done := make(chan struct{})
	go func() {
		workers.Wait()
		close(done)
	}()
	limit := time.NewTimer(e.cfg.Timeout + time.Second)
	defer limit.Stop()
	select {
	case <-done:
	case <-e.abort:
	case <-limit.C:
	}
}

// dispatch walks the schedule, waits for each due time and hands the
// request to a free connection. It reports whether it was interrupted.
func (e *Engine) dispatch(ctx context.Context, start time.Time) (interrupted bool) {
	var wait *time.Timer
	if e.cfg.PoolWait > 0 {
		wait = time.NewTimer(time.Hour)
		wait.Stop()
	}
	var sl sleeper
	defer sl.close()
	var woke time.Time
	for n := int64(0); ; n++ {
		off, ok := e.cfg.Schedule.Due(n)
		if !ok {
			return false
		}
		due := start.Add(off)
		// Wake at most once per coalesce window: at high rates the requests
		// due within it go out together, a little late (and measured so)
		// rather than each costing a wake-up of its own.
		now := time.Now()
		if wake := woke.Add(coalesce); due.After(now) {
			if due.After(wake) {
				wake = due
			}
			if !sl.until(ctx, wake, e.abort) {
				return true
			}
			woke = wake
			now = time.Now()
		} else if stopped(ctx, e.abort) {
			return true // behind schedule, but a stop still stops at once
		}
		e.attempted.Add(1)
		seq := e.cfg.Schedule.Seq(n)
		j := job{seq: seq, due: due, kind: e.pick[seq%int64(len(e.pick))]}
		select {
		case <-e.slots:
			e.jobs <- j
			e.handedOff(due, now, 0)
			continue
		default:
		}
		if wait == nil {
			e.poolExhausted(start, j)
			continue
		}
		wait.Reset(e.cfg.PoolWait)
		select {
		case <-e.slots:
			wait.Stop()
			e.jobs <- j
			got := time.Now()
			e.handedOff(due, got, got.Sub(now))
		case <-wait.C:
			e.poolExhausted(start, j)
		case <-ctx.Done():
			wait.Stop()
			e.attempted.Add(-1)
			return true
		}
	}
}

// stopped reports, without blocking, whether the run was cancelled or
// aborted.
func stopped(ctx context.Context, abort <-chan struct{}) bool {
	select {
	case <-ctx.Done():
		return true
	case <-abort:
		return true
	default:
		return false
	}
}

// handedOff records the dispatch lag of a request that got a connection
// at now: how late it was handed over, not counting the time spent
// waiting for a free connection.
func (e *Engine) handedOff(due, now time.Time, pooled time.Duration) {
	e.sent.Add(1)
	lag := now.Sub(due) - pooled
	us := min(max(lag.Microseconds(), 0), result.HistogramHighestUs)
	e.lag.RecordValue(us)
	e.lagSec.RecordValue(us)
	if us > e.lagMaxUs.Load() {
		e.lagMaxUs.Store(us)
	}
	// Once a second the dispatcher summarises its own lag for the live
	// view; the recorder cannot read a histogram it does not own.
	if due.After(e.lagRoll) {
		e.lagP50Us.Store(e.lagSec.ValueAtQuantile(50))
		e.lagP99Us.Store(e.lagSec.ValueAtQuantile(99))
		e.lagSec.Reset()
		e.lagRoll = due.Add(time.Second)
	}
}

func (e *Engine) poolExhausted(start time.Time, j job) {
	e.exhausted.Add(1)
	e.send(record{seq: j.seq, kind: j.kind, dueNs: j.due.Sub(start).Nanoseconds(), latency: time.Since(j.due).Nanoseconds(), class: classPoolExhausted})
}

// send records what happened to one request. Workers record directly,
// under the recorder's lock, rather than through a channel to another
// goroutine: at low rates that saves a goroutine wake-up per request, and
// at high rates the lock is held for well under a microsecond.
func (e *Engine) send(r record) {
	e.rec.record(r)
}

// work is one connection's loop: render, send, read, classify, record.
// Its request and response objects and body buffer are reused, so a
// request costs no allocation in steady state.
func (e *Engine) work(ready *sync.WaitGroup, begin <-chan struct{}, startAt *time.Time) {
	reqs := make([]*fasthttp.Request, len(e.kinds))
	for i := range e.kinds {
		reqs[i] = e.newRequest(&e.kinds[i])
		defer fasthttp.ReleaseRequest(reqs[i])
	}
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	body := make([]byte, 0, 16<<10)
	ready.Done()
	<-begin
	start := *startAt
	for j := range e.jobs {
		req := reqs[j.kind]
		body = e.kinds[j.kind].Body.AppendBody(body[:0], uint64(j.seq), j.due)
		req.SetBodyRaw(body)
		req.SetTimeout(e.cfg.Timeout)
		flight := e.inFlight.Add(1)
		written := time.Now()
		err := e.client.Do(req, resp)
		done := time.Now()
		e.inFlight.Add(-1)
		r := record{
			seq:     j.seq,
			flight:  flight,
			kind:    j.kind,
			step:    j.step,
			dueNs:   j.due.Sub(start).Nanoseconds(),
			latency: done.Sub(j.due).Nanoseconds(),
			service: done.Sub(written).Nanoseconds(),
			sent:    int64(len(body)),
			served:  true,
		}
		if err != nil {
			r.class = classifyError(err)
		} else {
			r.code = int32(resp.StatusCode())
			rb := resp.Body()
			r.recv = int64(len(rb))
			if r.code < 200 || r.code > 299 {
				r.class = classHTTP
				if id := messageID(rb); id != nil {
					r.msgID = string(id)
				}
			}
		}
		resp.Reset()
		e.slots <- struct{}{}
		e.send(r)
	}
}

// newRequest prepares the reusable request of one kind: everything but
// the body is set once.
func (e *Engine) newRequest(k *Request) *fasthttp.Request {
	req := fasthttp.AcquireRequest()
	req.SetRequestURI(k.URL)
	req.Header.SetMethod(e.cfg.Method)
	req.Header.SetContentType("application/json")
	for _, h := range e.header {
		req.Header.Set(h.Name, h.Value)
	}
	for _, h := range k.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	if !e.cfg.KeepAlive {
		req.SetConnectionClose()
	}
	return req
}

// span is how long the load lasts by design.
func (e *Engine) span() time.Duration {
	if e.cfg.Closed != nil {
		return e.cfg.Closed.span()
	}
	return e.cfg.Schedule.Span()
}

// String describes the engine's target for logs, without credentials.
func (e *Engine) String() string {
	return fmt.Sprintf("vesload engine → %s (pool %d)", e.target.addr, e.cfg.Pool)
}
