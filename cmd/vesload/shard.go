package main

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
)

// jobIndexEnv is the variable --shard auto/N reads.
const jobIndexEnv = engine.JobIndexEnv

// shardOptions are the flags that make a run one shard of several
// generators started at one instant (rendezvous.Options).
type shardOptions struct {
	shard, runID, startAt, rendezvous string
	startTolerance, readyTimeout      time.Duration
	withConsumer                      bool
}

func addShardFlags(fs *pflag.FlagSet, o *shardOptions) {
	fs.StringVar(&o.runID, "run-id", "", "run ID that prefixes every eventId; every shard of one run is given the same (default: random)")
	addShardTiming(fs, o, "send shard I of N of the schedule (requests n ≡ I mod N)")
}

// addShardTiming adds the shard flags but --run-id, for commands that
// have their own (vesload hv).
func addShardTiming(fs *pflag.FlagSet, o *shardOptions, what string) {
	fs.StringVar(&o.shard, "shard", "", what+": 'I/N', or 'auto/N' to read I from $"+jobIndexEnv)
	fs.StringVar(&o.startAt, "start-at", "", "start the schedule at this instant: RFC 3339 (2026-12-01T10:00:00Z) or +D from now (+30s)")
	fs.DurationVar(&o.startTolerance, "start-tolerance", time.Second, "refuse to run (exit 1) when reaching --start-at later than this")
	fs.StringVar(&o.rendezvous, "rendezvous", "", "agree on the start at run time: shard 0 listens on this HOST:PORT's port, gathers every shard's ready signal and hands all one start instant a few seconds ahead (instead of --start-at)")
	fs.DurationVar(&o.readyTimeout, "ready-timeout", 5*time.Minute, "with --rendezvous: fail (exit 1) when not every shard is ready within this")
	fs.BoolVar(&o.withConsumer, "with-consumer", false, "a 'vesload consume --rendezvous' follows the shards' delivery: with --rendezvous the start waits for it too and shard 0 tells it the run's plan; the results say so, and merge refuses them without the consumer's")
}

// resolve checks the shard flags (rendezvous.Options.Resolve): every
// error is bad usage naming the flag.
func (o *shardOptions) resolve(now time.Time, getenv func(string) string) (*rendezvous.Plan, error) {
	rv, err := rendezvous.Options{Shard: o.shard, RunID: o.runID, StartAt: o.startAt, StartTolerance: o.startTolerance,
		Addr: o.rendezvous, ReadyTimeout: o.readyTimeout, Consumer: o.withConsumer}.Resolve(now, getenv)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return rv, nil
}

// applyShard makes the plan the shard's (scenario.Plan.Shard).
func applyShard(pl *scenario.Plan, rv *rendezvous.Plan) error {
	err := pl.Shard(rv.Shard, rv.Start)
	switch {
	case errors.Is(err, scenario.ErrEmptyShard):
		return usagef("--shard %v", err)
	case err != nil:
		return usagef("--shard: %v", err)
	}
	return nil
}

// announceConsumer readies a shard of a run followed by a lone consumer
// (--with-consumer): its result says so, for merge, and shard 0 of a run
// that agrees on its start is given what to tell the consumer: the whole
// run's plan (agreed is called only then).
func announceConsumer(rv *rendezvous.Plan, rc *result.RunConfig, agreed func() (delivery.Agreed, error)) error {
	if !rv.Consumer {
		return nil
	}
	rc.Consumer = true
	if rv.Addr == "" || rv.Shard.Index != 0 {
		return nil
	}
	a, err := agreed()
	if err != nil {
		return err
	}
	rv.Follow, err = json.Marshal(a)
	return err
}

// sharded reports whether the plan is one shard of several generators.
func sharded(pl *scenario.Plan) bool { return !engine.ShardOf(pl.Config.Load).Whole() }
