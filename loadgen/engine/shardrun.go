package engine

import (
	"context"
	"time"

	"github.com/vesload/vesload/report/result"
)

// startAt is the instant the run's clock starts: now, or the start gate's
// instant once it is reached. offset is how far the clock reading at the
// start was from that instant.
func (e *Engine) startAt(ctx context.Context) (start time.Time, offset time.Duration, err error) {
	g, c := e.cfg.Start, e.clock
	if g == nil {
		return c.Now(), 0, nil
	}
	start, offset, ok, err := g.Wait(c, ctx.Done())
	if err != nil {
		return time.Time{}, 0, err
	}
	if !ok {
		// Stopped while waiting: the dispatcher sees the stop at once and
		// counts the whole schedule as not sent.
		return c.Now(), 0, nil
	}
	return start, offset, nil
}

// markShard records in the result which shard of a run it is and how far
// its clock start was from the shared start instant.
func (e *Engine) markShard(res *result.Result, offset time.Duration) {
	sh := ShardOf(e.cfg.Load)
	if sh.Whole() && e.cfg.Start == nil {
		return
	}
	info := &result.ShardInfo{Index: sh.Index, Count: max(sh.Count, 1)}
	if g := e.cfg.Start; g != nil {
		info.StartAt = g.At.UTC()
		info.StartOffsetMs = float64(offset.Microseconds()) / 1000
		info.StartToleranceMs = float64(g.Tolerance.Microseconds()) / 1000
	}
	res.Shard = info
}
