package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/hv"
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
}

// shardPlan is what the shard flags resolve to.
type shardPlan struct {
	shard loadgen.Shard
	runID string
	start *loadgen.StartGate
}

// resolve checks the shard flags. now is when "+D" counts from; getenv
// reads JOB_COMPLETION_INDEX. Every error is bad usage naming the flag.
func (o *shardOptions) resolve(now time.Time, getenv func(string) string) (*shardPlan, error) {
	sp := &shardPlan{runID: o.runID}
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
	if !sp.shard.Whole() {
		switch {
		case o.runID == "":
			return nil, usagef("--shard %s needs --run-id: every shard of one run is given the same run ID, so that eventIds stay unique and merge can check the shards belong together", o.shard)
		case sp.start == nil:
			return nil, usagef("--shard %s needs --start-at: the shards of one run start at one instant, or their arrivals bunch together", o.shard)
		}
	}
	return sp, nil
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
