package loadgen

import (
	"context"
	"fmt"
	"time"
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

// span is how long the closed-model run lasts.
func (c *Closed) span() time.Duration { return time.Duration(len(c.Concurrency)) * c.Step }

// dispatchClosed runs the closed model: in each step the dispatcher holds
// back the connection tokens above the step's concurrency and sends a
// request whenever a worker gives a token back. It reports whether it was
// interrupted.
func (e *Engine) dispatchClosed(ctx context.Context, start time.Time) (interrupted bool) {
	c := e.cfg.Closed
	held := 0
	var n int64
	for step, conc := range c.Concurrency {
		e.step.Store(int64(step))
		stepEnd := start.Add(time.Duration(step+1) * c.Step)
		timer := time.NewTimer(time.Until(stepEnd))
		for want := e.cfg.Pool - conc; held != want; {
			if held > want {
				e.slots <- struct{}{}
				held--
				continue
			}
			select {
			case <-e.slots:
				held++
			case <-ctx.Done():
				timer.Stop()
				return true
			case <-e.abort:
				timer.Stop()
				return true
			}
		}
		for stepOver := false; !stepOver; {
			select {
			case <-e.slots:
				now := time.Now()
				e.attempted.Add(1)
				seq := c.shard.Global(n)
				e.jobs <- job{seq: seq, due: now, kind: e.pick[seq%int64(len(e.pick))], step: uint16(step)}
				e.handedOff(now, now, 0)
				n++
			case <-timer.C:
				stepOver = true
			case <-ctx.Done():
				timer.Stop()
				return true
			case <-e.abort:
				timer.Stop()
				return true
			}
		}
	}
	return false
}
