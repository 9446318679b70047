package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles/scenario"
)

// jobIndexEnv is the variable --shard auto/N reads.
const jobIndexEnv = loadgen.JobIndexEnv

// shardOptions are the flags that make a run one shard of several
// generators started at one instant.
type shardOptions struct {
	shard          string
	runID          string
	startAt        string
	startTolerance time.Duration
	// rendezvous is shard 0's host:port: the shards agree on their start
	// there at run time instead of being given --start-at.
	rendezvous   string
	readyTimeout time.Duration
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

// shardPlan is what the shard flags resolve to.
type shardPlan struct {
	shard loadgen.Shard
	runID string
	start *loadgen.StartGate
	// rendezvous is shard 0's host:port when the start is agreed at run
	// time (start is nil until then); tolerance is the start gate's.
	rendezvous   string
	readyTimeout time.Duration
	tolerance    time.Duration
}

// resolve checks the shard flags. now is when "+D" counts from; getenv
// reads JOB_COMPLETION_INDEX. Every error is bad usage naming the flag.
func (o *shardOptions) resolve(now time.Time, getenv func(string) string) (*shardPlan, error) {
	sp := &shardPlan{runID: o.runID, rendezvous: o.rendezvous, readyTimeout: o.readyTimeout, tolerance: o.startTolerance}
	var err error
	if o.shard != "" {
		if sp.shard, err = parseShard(o.shard, getenv); err != nil {
			return nil, err
		}
	}
	if o.runID != "" {
		if err := ves.CheckRunID(o.runID); err != nil {
			return nil, usagef("--run-id: %v", err)
		}
	}
	if o.startTolerance < 0 {
		return nil, usagef("--start-tolerance %v: want 0 or a positive duration", o.startTolerance)
	}
	if o.startAt != "" {
		at, err := parseStartAt(o.startAt, now)
		if err != nil {
			return nil, err
		}
		sp.start = &loadgen.StartGate{At: at, Tolerance: o.startTolerance}
	}
	if o.rendezvous != "" {
		if err := checkRendezvous(o, sp.shard); err != nil {
			return nil, err
		}
	}
	if !sp.shard.Whole() {
		switch {
		case o.runID == "":
			return nil, usagef("--shard %s needs --run-id: every shard of one run is given the same run ID, so that eventIds stay unique and merge can check the shards belong together", o.shard)
		case strings.HasPrefix(o.startAt, "+"):
			return nil, usagef("--start-at %s with --shard: a relative start is counted from each shard's own launch, so the shards would not start together: give an RFC 3339 instant, or --rendezvous", o.startAt)
		case sp.start == nil && o.rendezvous == "":
			return nil, usagef("--shard %s needs --start-at or --rendezvous: the shards of one run start at one instant, or their arrivals bunch together", o.shard)
		}
	}
	return sp, nil
}

// checkRendezvous checks --rendezvous and what goes with it.
func checkRendezvous(o *shardOptions, sh loadgen.Shard) error {
	host, port, err := net.SplitHostPort(o.rendezvous)
	if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
		return usagef("--rendezvous %q: want HOST:PORT of shard 0, e.g. vesload-r42-0.vesload-r42:9465", o.rendezvous)
	}
	switch {
	case sh.Whole():
		return usagef("--rendezvous needs --shard: it is where the shards of one run agree on their start")
	case o.startAt != "":
		return usagef("--rendezvous with --start-at: give one: the start agreed at run time, or a wall-clock instant")
	case o.readyTimeout <= 0:
		return usagef("--ready-timeout %v: want a positive duration", o.readyTimeout)
	}
	return nil
}

// parseShard reads "I/N" or "auto/N" (loadgen.ParseShard).
func parseShard(s string, getenv func(string) string) (loadgen.Shard, error) {
	sh, err := loadgen.ParseShard(s, getenv)
	if err != nil {
		return sh, usagef("--shard %v", err)
	}
	return sh, nil
}

// parseStartAt reads an RFC 3339 instant or "+D" (loadgen.ParseStartAt).
func parseStartAt(s string, now time.Time) (time.Time, error) {
	t, err := loadgen.ParseStartAt(s, now)
	if err != nil {
		return t, usagef("--start-at %v", err)
	}
	return t, nil
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

// announce says, before a run waits for its start instant, which shard
// it is and when it starts, so that a pod's log explains the wait.
func (sp *shardPlan) announce(w io.Writer, quiet bool, now time.Time) {
	if quiet || sp.start == nil {
		return
	}
	who := "the run"
	if !sp.shard.Whole() {
		who = fmt.Sprintf("shard %s of run %s", sp.shard, sp.runID)
	}
	fmt.Fprintf(w, "vesload: %s starts at %s (in %v)\n", who, sp.start.At.UTC().Format(time.RFC3339Nano),
		sp.start.At.Sub(now).Round(time.Millisecond))
}

// sharded reports whether the plan is one shard of several generators.
func sharded(pl *scenario.Plan) bool { return !loadgen.ShardOf(pl.Config.Load).Whole() }

// coordinate starts shard 0's side of the rendezvous and returns a
// function that stops it. Other shards, and runs without --rendezvous,
// get a nil coordinator.
func (sp *shardPlan) coordinate(clock rendezvous.Clock) (*rendezvous.Coordinator, func(), error) {
	if sp.rendezvous == "" || sp.shard.Index != 0 {
		return nil, func() {}, nil
	}
	ln, err := net.Listen("tcp", rendezvous.ListenAddr(sp.rendezvous))
	if err != nil {
		return nil, nil, fmt.Errorf("--rendezvous: shard 0 cannot listen: %w", err)
	}
	c, stop := rendezvous.Serve(ln, sp.runID, sp.shard.Count, clock)
	return c, stop, nil
}

// agree waits until every shard is ready (at most --ready-timeout) and
// makes the start instant they agreed on the plan's start gate.
func (sp *shardPlan) agree(ctx context.Context, c *rendezvous.Coordinator, clock rendezvous.Clock) (*loadgen.StartGate, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, sp.readyTimeout, fmt.Errorf("not every shard ready within --ready-timeout %v", sp.readyTimeout))
	defer cancel()
	r := rendezvous.Ready{RunID: sp.runID, Shard: sp.shard.Index, Count: sp.shard.Count}
	at, err := rendezvous.Agree(ctx, c, "http://"+sp.rendezvous, r, clock)
	if err != nil {
		return nil, fmt.Errorf("shard %s: no start: %w", sp.shard, err)
	}
	sp.start = &loadgen.StartGate{At: at, Tolerance: sp.tolerance}
	return sp.start, nil
}

// startRendezvous keeps the shard plan and, on shard 0 of a run started
// by --rendezvous, starts the coordinator as soon as the run is set up,
// so that the other shards can reach it while this one gets ready.
func (s *runSetup) startRendezvous(sp *shardPlan) error {
	s.shard = sp
	c, stop, err := sp.coordinate(loadgen.SystemClock{})
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
	if sp == nil || sp.rendezvous == "" {
		return nil
	}
	if !s.o.quiet {
		fmt.Fprintf(stderr, "vesload: shard %s of run %s is ready: waiting for the other shards at %s (up to %v)\n", sp.shard, sp.runID, sp.rendezvous, sp.readyTimeout)
	}
	gate, err := sp.agree(s.ctx, s.coord, loadgen.SystemClock{})
	if err != nil {
		return err
	}
	s.plan.Config.Start = gate
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
