package loadgen

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/report/result"
)

// Engine runs one load test. Create it with New, then call Run once.
type Engine struct {
	cfg    Config
	facts  modelFacts
	target target
	client *fasthttp.HostClient
	warm   *warmDialer
	header []Header  // cfg.Headers plus the Authorization header
	kinds  []Request // the request mix; one kind without a mix

	c     counters
	lag   *lagMeter
	tl    *timeline
	rec   *recorder
	d     *dispatcher
	abort chan struct{}
	once  sync.Once
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
		facts:  cfg.Load.facts(cfg.Pool),
		target: t,
		warm:   warm,
		client: newHostClient(t, tc, &cfg, warm.Dial),
		lag:    newLagMeter(),
		abort:  make(chan struct{}),
	}
	if e.kinds, err = mixRequests(&e.cfg); err != nil {
		return nil, err
	}
	e.header = append([]Header(nil), cfg.Headers...)
	if cfg.User != "" || cfg.Password != "" {
		token := base64.StdEncoding.EncodeToString([]byte(cfg.User + ":" + cfg.Password))
		e.header = append(e.header, Header{Name: "Authorization", Value: "Basic " + token})
	}
	e.tl = newTimeline(e.facts.perSecond, e.facts.concurrency)
	e.rec = newRecorder(cfg.Observers, len(e.kinds), e.facts.steps, e.tl)
	e.d = &dispatcher{
		pool:  cfg.Pool,
		pick:  pickTable(e.kinds),
		slots: make(chan struct{}, cfg.Pool),
		jobs:  make(chan job, cfg.Pool),
		abort: e.abort,
		c:     &e.c, tl: e.tl, rec: e.rec, lag: e.lag,
	}
	if cfg.PoolWait > 0 {
		e.d.waiting = make(chan waitingJob, waitQueue(e.facts.peak, cfg.PoolWait))
	}
	for range cfg.Pool {
		e.d.slots <- struct{}{}
	}
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
	e.warm.warm(e.target.addr, e.facts.warm)
	defer e.warm.close()
	var workers, ready sync.WaitGroup
	var start time.Time
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
	start = time.Now()
	e.d.start, e.rec.started = start, start
	e.rec.obs.begin(start)
	tk := e.newTicker(start)
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
	e.tl.passed()
	if e.d.waiting != nil {
		close(e.d.waiting)
		waiter.Wait()
	}
	close(e.d.jobs)
	e.drain(&workers)
	tk.stop()
	e.client.CloseIdleConnections()
	final := e.rec.finish()
	return tk.result(final, time.Now(), interrupted, true), nil
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
	var r record
	ready.Done()
	<-begin
	start := *startAt
	for j := range e.d.jobs {
		req := reqs[j.kind]
		body = e.kinds[j.kind].Body.AppendBody(body[:0], uint64(j.seq), j.due)
		req.SetBodyRaw(body)
		req.SetTimeout(e.cfg.Timeout)
		flight := e.c.inFlight.Add(1)
		written := time.Now()
		err := e.client.Do(req, resp)
		done := time.Now()
		e.c.inFlight.Add(-1)
		r = record{
			seq:     j.seq,
			flight:  flight,
			kind:    j.kind,
			step:    j.step,
			dueNs:   j.due.Sub(start).Nanoseconds(),
			latency: done.Sub(j.due).Nanoseconds(),
			service: done.Sub(written).Nanoseconds(),
			sent:    int64(len(body)),
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
		e.d.slots <- struct{}{}
		e.rec.record(&r)
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

// String describes the engine's target for logs, without credentials.
func (e *Engine) String() string {
	return fmt.Sprintf("vesload engine → %s (pool %d)", e.target.addr, e.cfg.Pool)
}
