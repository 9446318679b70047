package hv

import (
	"context"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report/result"
)

// mine lists the run-wide numbers of the producers this generator runs:
// all of them, or those p ≡ Shard.Index (mod Shard.Count) of a shard.
// They keep their run-wide phase, sourceName and eventIds, so the shards
// together send exactly what one generator would (docs/ARCHITECTURE.md,
// "Many generators").
func (c Config) mine() []int {
	var ps []int
	for p := range c.Producers {
		if c.Shard.Whole() || p%c.Shard.Count == c.Shard.Index {
			ps = append(ps, p)
		}
	}
	return ps
}

// startAt is when the producers' schedules start: now, or the start
// gate's instant once reached. offset is how far the clock was from it.
func (c Config) startAt(ctx context.Context) (start time.Time, offset time.Duration, err error) {
	now := c.Clock.Now()
	g := c.Start
	if g == nil {
		return now, 0, nil
	}
	if late := now.Sub(g.At); late > g.Tolerance {
		return time.Time{}, 0, &loadgen.LateError{At: g.At, Late: late, Tolerance: g.Tolerance}
	}
	if err := c.Clock.NewSleeper().SleepUntil(ctx, g.At); err != nil {
		return c.Clock.Now(), 0, nil // stopped: the schedules see the stop at once
	}
	return g.At, c.Clock.Now().Sub(g.At), nil
}

// shardInfo is what the result records of a shard or a gated start.
func (o *Outcome) shardInfo() *result.ShardInfo {
	c := o.Config
	if c.Shard.Whole() && c.Start == nil {
		return nil
	}
	info := &result.ShardInfo{Index: c.Shard.Index, Count: max(c.Shard.Count, 1)}
	if c.Start != nil {
		info.StartAt = c.Start.At.UTC()
		info.StartOffsetMs = float64(o.StartOffset.Microseconds()) / 1000
	}
	return info
}
