package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/profiles/scenario"
)

// jobIndexEnv is the variable --shard auto/N reads.
const jobIndexEnv = loadgen.JobIndexEnv

// shardOptions are the flags that make a run one shard of several
// generators started at one instant (rendezvous.Options).
type shardOptions struct {
	shard, runID, startAt, rendezvous string
	startTolerance, readyTimeout      time.Duration
}

func addShardFlags(fs *pflag.FlagSet, o *shardOptions) {
	fs.StringVar(&o.runID, "run-id", "", "run ID that prefixes every eventId; every shard of one run is given the same (default: random)")
	addShardTiming(fs, o, "send shard I of N of the schedule (requests n ≡ I mod N)")
	fs.StringVar(&o.rendezvous, "rendezvous", "", "agree on the start at run time: shard 0 listens on this HOST:PORT's port, gathers every shard's ready signal and hands all one start instant a few seconds ahead (instead of --start-at)")
	fs.DurationVar(&o.readyTimeout, "ready-timeout", 5*time.Minute, "with --rendezvous: fail (exit 1) when not every shard is ready within this")
}

// addShardTiming adds the shard flags but --run-id, for commands that
// have their own (vesload hv).
func addShardTiming(fs *pflag.FlagSet, o *shardOptions, what string) {
	fs.StringVar(&o.shard, "shard", "", what+": 'I/N', or 'auto/N' to read I from $"+jobIndexEnv)
	fs.StringVar(&o.startAt, "start-at", "", "start the schedule at this instant: RFC 3339 (2026-12-01T10:00:00Z) or +D from now (+30s)")
	fs.DurationVar(&o.startTolerance, "start-tolerance", time.Second, "refuse to run (exit 1) when reaching --start-at later than this")
}

// shardPlan is what the shard flags resolve to; rv is nil for a plan
// made up by a command (vesload hv).
type shardPlan struct {
	shard loadgen.Shard
	runID string
	start *loadgen.StartGate
	rv    *rendezvous.Plan
}

// resolve checks the shard flags (rendezvous.Options.Resolve): every
// error is bad usage naming the flag.
func (o *shardOptions) resolve(now time.Time, getenv func(string) string) (*shardPlan, error) {
	rv, err := rendezvous.Options{Shard: o.shard, RunID: o.runID, StartAt: o.startAt, StartTolerance: o.startTolerance,
		Addr: o.rendezvous, ReadyTimeout: o.readyTimeout}.Resolve(now, getenv)
	if err != nil {
		return nil, usageError{err}
	}
	return &shardPlan{shard: rv.Shard, runID: rv.RunID, start: rv.Start, rv: rv}, nil
}

// apply makes the plan the shard's (scenario.Plan.Shard).
func (sp *shardPlan) apply(pl *scenario.Plan) error {
	err := pl.Shard(sp.shard, sp.start)
	switch {
	case errors.Is(err, scenario.ErrEmptyShard):
		return usagef("--shard %v", err)
	case err != nil:
		return usagef("--shard: %v", err)
	}
	return nil
}

// announce says which shard is waiting for which start instant.
func (sp *shardPlan) announce(w io.Writer, quiet bool, now time.Time) {
	if !quiet && sp.rv != nil {
		sp.rv.Announce(w, now)
	}
}

// sharded reports whether the plan is one shard of several generators.
func sharded(pl *scenario.Plan) bool { return !loadgen.ShardOf(pl.Config.Load).Whole() }

// startRendezvous keeps the shard plan and, on shard 0 of a run started
// by --rendezvous, starts the coordinator as soon as the run is set up,
// so that the other shards can reach it while this one gets ready.
func (s *runSetup) startRendezvous(sp *shardPlan) error {
	s.shard = sp
	c, stop, err := sp.rv.Coordinate(loadgen.SystemClock{})
	if err != nil {
		return err
	}
	s.coord = c
	s.closers = append(s.closers, stop)
	return nil
}

// agreeStart waits, with --rendezvous, for every shard to be ready and
// sets the start gate to the instant they agreed on.
func (s *runSetup) agreeStart(stderr io.Writer) error {
	sp := s.shard
	if sp == nil || sp.rv == nil || sp.rv.Addr == "" {
		return nil
	}
	if !s.o.quiet {
		fmt.Fprintf(stderr, "vesload: shard %s of run %s is ready: waiting for the other shards at %s (up to %v)\n", sp.shard, sp.runID, sp.rv.Addr, sp.rv.ReadyTimeout)
	}
	gate, err := sp.rv.AgreeStart(s.ctx, s.coord, loadgen.SystemClock{})
	if err != nil {
		return err
	}
	s.plan.Config.Start, sp.start = gate, gate
	sp.announce(stderr, s.o.quiet, time.Now())
	return nil
}

// influxShard is the shard tag of the run's InfluxDB points: the shard's
// index, as the PodMonitor's shard label; empty for a whole run.
func (s *runSetup) influxShard() string {
	if s.shard == nil || s.shard.shard.Whole() {
		return ""
	}
	return strconv.Itoa(s.shard.shard.Index)
}
