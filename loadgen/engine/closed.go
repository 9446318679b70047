package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Closed is a closed-model load: Concurrency[i] requests are kept in
// flight during step i, each sent as soon as the previous one of its slot
// is answered, for Step each. This is how ingress concurrency ramps are
// run (100 … 1000 concurrent); the open model is vesload's default because
// a closed loop lets a slow target slow the load down.
type Closed struct {
	Concurrency []int
	Step        time.Duration
	shard       Shard // set by Shard: a part of a ramp several generators share
}

func (c *Closed) validate(pool int) error {
	if len(c.Concurrency) == 0 || c.Step <= 0 {
		return fmt.Errorf("closed model: want at least one concurrency level and a positive step")
	}
	least := 1
	if !c.shard.Whole() {
		least = 0 // a shard may get no slot in a small step
	}
	for _, n := range c.Concurrency {
		if n < least || n > pool {
			return fmt.Errorf("closed model: concurrency %d must be between 1 and the pool size %d", n, pool)
		}
	}
	if len(c.Concurrency) > 1<<16 {
		return fmt.Errorf("closed model: too many steps")
	}
	return nil
}

// Span is how long the closed-model run lasts.
func (c *Closed) Span() time.Duration { return time.Duration(len(c.Concurrency)) * c.Step }

// MeanRate is 0: a closed model asks for no rate, it gets what the
// target allows.
func (c *Closed) MeanRate() float64 { return 0 }

func (c *Closed) facts(pool int) modelFacts {
	return modelFacts{
		total: -1,
		steps: len(c.Concurrency),
		concurrency: func(s int64) int {
			i := min(int(time.Duration(s)*time.Second/c.Step), len(c.Concurrency)-1)
			return c.Concurrency[max(i, 0)]
		},
		step: func(i int) result.Step {
			return result.Step{Concurrency: c.Concurrency[i], StartS: (time.Duration(i) * c.Step).Seconds(), DurationS: c.Step.Seconds()}
		},
		warm: min(c.Concurrency[0], pool),
	}
}

// dispatch runs the closed model: in each step the dispatcher holds back
// the connection tokens above the step's concurrency and sends a request
// whenever a worker gives a token back. It reports whether it was
// interrupted.
func (c *Closed) dispatch(ctx context.Context, d *dispatcher) (interrupted bool) {
	var held []token // tokens held back above the step's concurrency
	var n int64
	for step, conc := range c.Concurrency {
		stepEnd := d.start.Add(time.Duration(step+1) * c.Step)
		timer := d.clock.NewTimer(stepEnd.Sub(d.now()))
		for want := d.pool - conc; len(held) != want; {
			if len(held) > want {
				d.conns.give(held[len(held)-1])
				held = held[:len(held)-1]
				continue
			}
			if t, ok := d.conns.take(); ok {
				held = append(held, t)
				continue
			}
			select {
			case <-d.conns.freed:
			case <-ctx.Done():
				timer.Stop()
				return true
			case <-d.abort:
				timer.Stop()
				return true
			}
		}
		for stepOver := false; !stepOver; {
			t, ok := d.conns.take()
			if ok {
				now := d.now()
				seq := c.shard.Global(n)
				j := job{seq: seq, due: now, kind: d.kind(seq), step: uint16(step)}
				d.reached(j)
				d.handOff(j, t)
				d.lag.dispatched(now, now)
				n++
				continue
			}
			select {
			case <-d.conns.freed:
			case <-timer.C():
				stepOver = true
			case <-ctx.Done():
				timer.Stop()
				return true
			case <-d.abort:
				timer.Stop()
				return true
			}
		}
	}
	return false
}
