package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// jobIndexEnv is the variable Kubernetes sets in every pod of an Indexed
// Job to the pod's completion index; --shard auto/N reads it.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// maxShards bounds --shard N: more generators than this is a typo.
const maxShards = 10000

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

// parseShard reads "I/N" or "auto/N".
func parseShard(s string, getenv func(string) string) (loadgen.Shard, error) {
	idx, count, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 || n > maxShards {
		return loadgen.Shard{}, usagef("--shard %q: want I/N or auto/N with N a whole number from 1 to %d", s, maxShards)
	}
	from := "--shard " + s
	if idx == "auto" {
		idx = getenv(jobIndexEnv)
		if idx == "" {
			return loadgen.Shard{}, usagef("--shard %s: $%s is not set (Kubernetes sets it in the pods of an Indexed Job); give the index as I/%d", s, jobIndexEnv, n)
		}
		from = fmt.Sprintf("--shard %s ($%s=%q)", s, jobIndexEnv, idx)
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= n {
		return loadgen.Shard{}, usagef("%s: want an index from 0 to %d", from, n-1)
	}
	return loadgen.Shard{Index: i, Count: n}, nil
}

// parseStartAt reads an RFC 3339 instant or "+D", a duration from now.
func parseStartAt(s string, now time.Time) (time.Time, error) {
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return time.Time{}, usagef("--start-at %q: want +D with D a duration such as 30s", s)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, usagef("--start-at %q: want an RFC 3339 instant such as 2026-12-01T10:00:00Z, or +D such as +30s", s)
	}
	return t, nil
}

// apply makes the plan the shard's: its part of the schedule (or of the
// closed-model ramp), the start gate, and the shard's rate in the
// result's configuration.
func (sp *shardPlan) apply(pl *scenario.Plan) error {
	cfg := &pl.Config
	cfg.Start = sp.start
	if sp.shard.Whole() {
		return nil
	}
	switch m := cfg.Load.(type) {
	case *loadgen.Schedule:
		v, err := m.Shard(sp.shard)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		if v.Total() == 0 {
			return usagef("--shard %s: this shard gets no request of the %s (fewer requests than shards)", sp.shard, pl.RunConfig.Shape)
		}
		cfg.Load, pl.RunConfig.RPS = v, v.MeanRate()
	case *loadgen.Closed:
		v, err := m.Shard(sp.shard)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		cfg.Load = v
	}
	return nil
}

// scenarioDigest identifies a resolved scenario: the shards of one run
// load the same profile and flags, so their digests agree, and merge
// refuses results whose digests differ. Where the profile was read from
// is not part of it.
func scenarioDigest(p *profiles.Profile) (string, error) {
	c := *p
	c.Source = ""
	b, err := c.Marshal()
	if err != nil {
		return "", fmt.Errorf("digest of the scenario: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:12]), nil
}

// hvDigest identifies an HV-VES run's scenario: what every shard must
// agree on (not the shard itself, nor the clocks).
func hvDigest(c hv.Config) string {
	s := fmt.Sprintf("hv\x00%s\x00%d\x00%d\x00%d\x00%v\x00%s\x00%v", c.Addr, c.Producers, c.Messages, c.Size, c.Interval, c.Domain, c.TLS != nil)
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:12])
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

// coordinate starts shard 0's side of the rendezvous: it listens on the
// port of --rendezvous (on the address itself when that is an IP, as a
// local harness gives it; on every interface otherwise, as a pod
// behind a headless Service needs) and returns a function that stops it.
// Other shards, and runs without --rendezvous, get a nil coordinator.
func (sp *shardPlan) coordinate(clock rendezvous.Clock) (*rendezvous.Coordinator, func(), error) {
	if sp.rendezvous == "" || sp.shard.Index != 0 {
		return nil, func() {}, nil
	}
	host, port, _ := net.SplitHostPort(sp.rendezvous)
	addr := ":" + port
	if net.ParseIP(host) != nil {
		addr = sp.rendezvous
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--rendezvous: shard 0 cannot listen: %w", err)
	}
	c := rendezvous.NewCoordinator(sp.runID, sp.shard.Count, rendezvous.DefaultLead, clock)
	srv := &http.Server{Handler: c, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }() // ends with Shutdown
	stop := func() {
		// Shards still waiting get shard 0's answer before it goes.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}
	return c, stop, nil
}

// agree waits until every shard is ready and makes the start instant
// they agreed on the plan's start gate: shard 0 through its coordinator
// c, the others by asking shard 0. Not every shard ready within
// --ready-timeout is an error, and shard 0 tells the shards waiting.
func (sp *shardPlan) agree(ctx context.Context, c *rendezvous.Coordinator, clock rendezvous.Clock) (*loadgen.StartGate, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, sp.readyTimeout, fmt.Errorf("not every shard ready within --ready-timeout %v", sp.readyTimeout))
	defer cancel()
	r := rendezvous.Ready{RunID: sp.runID, Shard: sp.shard.Index, Count: sp.shard.Count}
	var at time.Time
	var err error
	if c != nil {
		if at, err = c.Arrive(ctx, r); err != nil {
			err = fmt.Errorf("shards %v did not arrive: %w", c.Missing(), err)
			c.Fail(err)
		}
	} else {
		at, err = rendezvous.Join(ctx, &http.Client{}, "http://"+sp.rendezvous, r, clock)
	}
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
