package rendezvous

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/ves"
)

// Options make a run one shard of several generators started at one
// instant: vesload's --shard, --run-id, --start-at, --start-tolerance,
// --rendezvous and --ready-timeout, whose names the errors use (every
// error of Resolve is the options' fault).
type Options struct {
	// Shard is "I/N", or "auto/N" with I from $JOB_COMPLETION_INDEX.
	Shard string
	RunID string
	// StartAt is an RFC 3339 instant or "+D" from now.
	StartAt        string
	StartTolerance time.Duration
	// Addr is shard 0's HOST:PORT when the shards agree on their start
	// at run time instead of being given StartAt.
	Addr         string
	ReadyTimeout time.Duration
	// Consumer says a delivery consumer (`vesload consume`) follows the
	// run beside the shards: with Addr, the start waits for it too.
	Consumer bool
}

// Plan is what the options resolve to.
type Plan struct {
	Shard engine.Shard
	RunID string
	// Start is the start gate: given, or agreed at run time (nil until
	// then when Addr is set).
	Start        *engine.StartGate
	Addr         string
	ReadyTimeout time.Duration
	Tolerance    time.Duration
	// Consumer is Options.Consumer. Follow is what shard 0 hands the
	// consumer with the start (the run's delivery plan, as JSON), set
	// before Coordinate.
	Consumer bool
	Follow   json.RawMessage
}

// Resolve checks the options and resolves them; now is when "+D" counts
// from, getenv reads $JOB_COMPLETION_INDEX.
func (o Options) Resolve(now time.Time, getenv func(string) string) (*Plan, error) {
	p := &Plan{RunID: o.RunID, Addr: o.Addr, ReadyTimeout: o.ReadyTimeout, Tolerance: o.StartTolerance, Consumer: o.Consumer}
	var err error
	if o.Shard != "" {
		if p.Shard, err = engine.ParseShard(o.Shard, getenv); err != nil {
			return nil, fmt.Errorf("--shard %v", err)
		}
	}
	if o.RunID != "" {
		if err := ves.CheckRunID(o.RunID); err != nil {
			return nil, fmt.Errorf("--run-id: %v", err)
		}
	}
	if o.StartTolerance < 0 {
		return nil, fmt.Errorf("--start-tolerance %v: want 0 or a positive duration", o.StartTolerance)
	}
	if o.StartAt != "" {
		at, err := engine.ParseStartAt(o.StartAt, now)
		if err != nil {
			return nil, fmt.Errorf("--start-at %v", err)
		}
		p.Start = &engine.StartGate{At: at, Tolerance: o.StartTolerance}
	}
	if o.Addr != "" {
		if err := o.checkAddr(); err != nil {
			return nil, err
		}
	}
	if o.Consumer && o.Shard == "" {
		return nil, errors.New("--with-consumer needs --shard: a run of one generator follows delivery itself (--consume)")
	}
	if !p.Shard.Whole() {
		switch {
		case o.RunID == "":
			return nil, fmt.Errorf("--shard %s needs --run-id: every shard of one run is given the same run ID, so that eventIds stay unique and merge can check the shards belong together", o.Shard)
		case strings.HasPrefix(o.StartAt, "+"):
			return nil, fmt.Errorf("--start-at %s with --shard: a relative start is counted from each shard's own launch, so the shards would not start together: give an RFC 3339 instant, or --rendezvous", o.StartAt)
		case p.Start == nil && o.Addr == "":
			return nil, fmt.Errorf("--shard %s needs --start-at or --rendezvous: the shards of one run start at one instant, or their arrivals bunch together", o.Shard)
		}
	}
	return p, nil
}

// checkAddr checks --rendezvous and what goes with it.
func (o Options) checkAddr() error {
	host, port, err := net.SplitHostPort(o.Addr)
	if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
		return fmt.Errorf("--rendezvous %q: want HOST:PORT of shard 0, e.g. vesload-r42-0.vesload-r42:9465", o.Addr)
	}
	switch {
	case o.Shard == "":
		// One shard (N = 1, as a Job of one pod) may still meet its
		// consumer there.
		return errors.New("--rendezvous needs --shard: it is where the shards of one run agree on their start")
	case o.StartAt != "":
		return errors.New("--rendezvous with --start-at: give one: the start agreed at run time, or a wall-clock instant")
	case o.ReadyTimeout <= 0:
		return fmt.Errorf("--ready-timeout %v: want a positive duration", o.ReadyTimeout)
	}
	return nil
}

// Announce says, before a run waits for its start instant, which shard
// it is and when it starts, so that a pod's log explains the wait.
func (p *Plan) Announce(w io.Writer, now time.Time) {
	if p.Start == nil {
		return
	}
	who := "the run"
	if !p.Shard.Whole() {
		who = fmt.Sprintf("shard %s of run %s", p.Shard, p.RunID)
	}
	fmt.Fprintf(w, "vesload: %s starts at %s (in %v)\n", who, p.Start.At.UTC().Format(time.RFC3339Nano),
		p.Start.At.Sub(now).Round(time.Millisecond))
}

// Coordinate starts shard 0's side of the rendezvous and returns a
// function that stops it. Other shards, and runs without a rendezvous,
// get a nil coordinator.
func (p *Plan) Coordinate(clk clock.Clock) (*Coordinator, func(), error) {
	if p.Addr == "" || p.Shard.Index != 0 {
		return nil, func() {}, nil
	}
	ln, err := net.Listen("tcp", ListenAddr(p.Addr))
	if err != nil {
		return nil, nil, fmt.Errorf("--rendezvous: shard 0 cannot listen: %w", err)
	}
	c := NewCoordinator(p.RunID, p.Shard.Count, DefaultLead, clk)
	if p.Consumer {
		c.WaitForConsumer(p.Follow)
	}
	return c, Serve(ln, c), nil
}

// AgreeStart waits until every shard is ready (at most ReadyTimeout),
// through c on shard 0, and makes the instant they agreed on the plan's
// start gate.
func (p *Plan) AgreeStart(ctx context.Context, c *Coordinator, clk clock.Clock) (*engine.StartGate, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, p.ReadyTimeout, fmt.Errorf("not every shard ready within --ready-timeout %v", p.ReadyTimeout))
	defer cancel()
	r := Ready{RunID: p.RunID, Shard: p.Shard.Index, Count: p.Shard.Count}
	at, err := Agree(ctx, c, "http://"+p.Addr, r, clk)
	if err != nil {
		return nil, fmt.Errorf("shard %s: no start: %w", p.Shard, err)
	}
	p.Start = &engine.StartGate{At: at, Tolerance: p.Tolerance}
	return p.Start, nil
}
