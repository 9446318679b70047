package hv

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/loadgen/hv/wtp"
)

// Redial back-off after a failed connection attempt.
const (
	minRedial = 50 * time.Millisecond
	maxRedial = time.Second
)

// producer is one connection and its schedule.
type producer struct {
	p       int
	cfg     *Config
	enc     *wtp.Encoder
	rec     *recorder
	sleeper Sleeper
	c       atomic.Pointer[conn] // read by the stop watcher
	start   time.Time
}

// Outcome is what a run recorded, for Result to turn into a document.
type Outcome struct {
	Config      Config
	Start, End  time.Time
	Interrupted bool
	// StartOffset is how far the clock was from Config.Start's instant
	// when the schedules started.
	StartOffset time.Duration
	recs        []*recorder
}

// Run makes every producer's connection (all must succeed: an unreachable
// collector, a refused handshake or a listener that answers is an error
// before anything is scheduled, see probe), then runs the
// schedules until done or ctx ends. live, when not nil, is updated as
// messages go.
func Run(ctx context.Context, cfg Config, live *Live) (*Outcome, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if live == nil {
		live = &Live{}
	}
	ps, err := connectAll(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	start, offset, err := cfg.startAt(ctx)
	if err != nil {
		for _, p := range ps {
			p.c.Load().Close()
		}
		return nil, err
	}
	if cfg.OnStart != nil {
		cfg.OnStart(start)
	}
	out := &Outcome{Config: cfg, Start: start, StartOffset: offset}
	var wg sync.WaitGroup
	for _, p := range ps {
		p.start = start
		p.rec = newRecorder(start, cfg.Span(), live, cfg.Observe)
		p.rec.connected(p.c.Load().connect, p.c.Load().handshake, cfg.TLS != nil)
		out.recs = append(out.recs, p.rec)
		wg.Go(func() { p.run(ctx) })
	}
	stopWatch := watchStop(ctx, ps)
	wg.Wait()
	stopWatch()
	out.End = cfg.Clock.Now()
	out.Interrupted = ctx.Err() != nil
	return out, nil
}

// connectAll makes the producers and their first connections in parallel.
func connectAll(ctx context.Context, cfg *Config) ([]*producer, error) {
	mine := cfg.mine()
	ps := make([]*producer, len(mine))
	errs := make([]error, len(mine))
	var wg sync.WaitGroup
	for i, p := range mine {
		enc, err := wtp.NewEncoder(cfg.Source(p), cfg.Size)
		if err != nil {
			return nil, fmt.Errorf("--size: %w", err)
		}
		ps[i] = &producer{p: p, cfg: cfg, enc: enc, sleeper: cfg.Clock.NewSleeper()}
		wg.Go(func() {
			c, err := dial(ctx, cfg)
			if err != nil {
				errs[i] = err
				return
			}
			ps[i].c.Store(c)
			errs[i] = probe(c, cfg.ProbeWait)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			for _, p := range ps {
				if c := p.c.Load(); c != nil {
					c.Close()
				}
			}
			return nil, fmt.Errorf("connect to %s (producer %d): %w", cfg.Addr, mine[i], err)
		}
	}
	return ps, nil
}

// watchStop makes blocked writes return soon after ctx ends, so that a
// stop never waits on a stalled collector. The returned func ends the
// watch.
func watchStop(ctx context.Context, ps []*producer) func() {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-ctx.Done():
			for _, p := range ps {
				if c := p.c.Load(); c != nil {
					_ = c.SetWriteDeadline(time.Now().Add(time.Second)) // a closed conn has nothing to stop
				}
			}
		}
	}()
	return func() { close(done) }
}

// run sends the producer's messages on schedule.
func (p *producer) run(ctx context.Context) {
	cfg, rec := p.cfg, p.rec
	defer func() {
		if c := p.c.Load(); c != nil {
			c.Close()
		}
	}()
	var nextDial time.Time
	redial := minRedial
	for i := 0; i < cfg.Messages; i++ {
		due := p.start.Add(cfg.Due(p.p, i))
		rec.scheduled(due)
		if p.sleeper.SleepUntil(ctx, due) != nil {
			p.stopped(i)
			return
		}
		c := p.c.Load()
		if c == nil {
			if cfg.Clock.Now().Before(nextDial) {
				rec.notSent(due, NotSentDisconnected)
				continue
			}
			var ok bool
			if c, ok = p.redial(ctx); !ok {
				nextDial = cfg.Clock.Now().Add(redial)
				redial = min(2*redial, maxRedial)
				rec.notSent(due, NotSentDisconnected)
				continue
			}
			redial = minRedial
			rec.notSent(due, NotSentDisconnected) // due while the connection was down
			i = p.skipDueBefore(i, cfg.Clock.Now())
			continue
		}
		p.send(ctx, c, i, due)
	}
}

// stopped counts messages i.. as not sent after a stop (message i was
// already counted as scheduled).
func (p *producer) stopped(i int) {
	rec := p.rec
	rec.notSent(p.start.Add(p.cfg.Due(p.p, i)), NotSentStopped)
	for j := i + 1; j < p.cfg.Messages; j++ {
		due := p.start.Add(p.cfg.Due(p.p, j))
		rec.scheduled(due)
		rec.notSent(due, NotSentStopped)
	}
}

// skipDueBefore counts the messages after i that fell due before t (the
// connection was not up at their due time) as not sent and returns the
// last one skipped.
func (p *producer) skipDueBefore(i int, t time.Time) int {
	for i+1 < p.cfg.Messages {
		due := p.start.Add(p.cfg.Due(p.p, i+1))
		if !due.Before(t) {
			break
		}
		i++
		p.rec.scheduled(due)
		p.rec.notSent(due, NotSentDisconnected)
	}
	return i
}

// redial re-makes a dropped connection.
func (p *producer) redial(ctx context.Context) (*conn, bool) {
	c, err := dial(ctx, p.cfg)
	if err != nil {
		p.rec.dialErrors[Cause(err)]++
		return nil, false
	}
	p.rec.reconnects++
	p.rec.live.Reconnects.Add(1)
	p.rec.connected(c.connect, c.handshake, p.cfg.TLS != nil)
	p.c.Store(c)
	if ctx.Err() != nil { // the stop watcher may have passed this connection by
		_ = c.SetWriteDeadline(time.Now()) // the write fails at once and counts as aborted
	}
	return c, true
}

// send writes message i; a failed write drops the connection.
func (p *producer) send(ctx context.Context, c *conn, i int, due time.Time) {
	cfg := p.cfg
	frame, err := p.enc.Frame(wtp.Message{
		GlobalSeq: cfg.GlobalSeq(p.p, i), Sequence: uint32(i),
		EpochMicros: uint64(due.UnixMicro()),
	})
	if err != nil { // cannot happen for a size Check accepted
		p.rec.notSent(due, "encode")
		return
	}
	begin := cfg.Clock.Now()
	if ctx.Err() == nil {
		_ = c.SetWriteDeadline(begin.Add(cfg.WriteTimeout)) // an error shows in the write
	}
	_, err = c.Write(frame)
	done := cfg.Clock.Now()
	if err == nil {
		p.rec.written(due, begin, done, len(frame))
		return
	}
	cause := Cause(err)
	if ctx.Err() != nil {
		cause = "aborted"
	}
	p.rec.failed(done, cause)
	c.Close()
	p.c.Store(nil)
}
