package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
)

const consumeSynopsis = "vesload consume URL --run-id R (--duration D [--start-at T] [--rps R] | --rendezvous HOST:PORT) [--grace D] [--expect N] [-o delivery.json]"

// consumeCmd holds the consume command's own flags: the lone follower
// (delivery.Alone) and where its result goes.
type consumeCmd struct {
	kafka        consumeOptions
	a            delivery.Alone
	startAt      string
	output       string
	parent       bool
	rendezvous   string
	readyTimeout time.Duration
	resultDir    string
}

// runConsume follows one run's events on the output topic on its own,
// beside the run's shards or beside any generator, and writes a delivery
// result that `vesload merge` joins with the generators' results
// (docs/ARCHITECTURE.md, "Delivery"). It stops at the run's end (the
// start plus --duration) plus --grace, once --expect events arrived, or
// at SIGINT/SIGTERM, and writes the result in every case. With
// --rendezvous it is a member of the run: it joins the shards' start
// agreement once it reads the topic and learns the run's plan there.
func runConsume(args []string, stdout, stderr io.Writer) int {
	var c consumeCmd
	fs := newFlagSet("consume")
	fs.StringVar(&c.a.Plan.RunID, "run-id", "", "the run to follow: its eventIds are <run id>-<n> (required)")
	fs.StringVar(&c.startAt, "start-at", "", "the run's start: the shards' RFC 3339 instant, or +D from now (default: now)")
	fs.DurationVar(&c.a.Duration, "duration", 0, "the run's duration: the consumer stops --grace after start + duration (required)")
	fs.Float64Var(&c.a.Plan.Rate, "rps", 0, "the run's constant request rate, for due times: without it delivery is counted but no end-to-end time is measured")
	fs.IntVar(&c.a.Plan.Batch, "batch", 1, "events per request, as the run's profile sends them")
	fs.Int64Var(&c.a.Expect, "expect", -1, "stop as soon as this many distinct events were delivered (default: wait for the end and the grace)")
	fs.Uint64Var(&c.a.Plan.Events, "events", 0, "the highest event number followed, plus one (default from --expect or --rps × --duration × --batch, else 16Mi)")
	fs.DurationVar(&c.kafka.grace, "grace", defaultGrace, "how long after the run's end an event may still arrive before it counts as lost")
	fs.StringVar(&c.kafka.group, "group", "", "Kafka consumer group (default vesload-<run id>-consume)")
	fs.StringVar(&c.rendezvous, "rendezvous", "", "take part in the shards' start agreement at shard 0's HOST:PORT (shards run with --rendezvous and --with-consumer): the run starts once the consumer reads the topic, and shard 0 tells it the run's start and plan (instead of --duration, --start-at, --rps, --batch and --events); it stops once every event is in or the grace ends")
	fs.DurationVar(&c.readyTimeout, "ready-timeout", 5*time.Minute, "with --rendezvous: fail (exit 1) when the run has not started within this")
	fs.StringVarP(&c.output, "output", "o", "-", "write the delivery result to FILE (atomically); '-' for stdout")
	fs.StringVar(&c.resultDir, "result-dir", "", "also write the delivery result into this folder as vesload-<run id>-consume.json (a volume that outlives a pod, beside -o -)")
	fs.BoolVar(&c.parent, "parent", false, "follow for the run that started this process: its plan on stdin, the figures on stdout")
	_ = fs.MarkHidden("parent")
	addKafkaFlags(fs, &c.kafka)
	if code, done := parseCommand(fs, args, consumeSynopsis, stdout, stderr); done {
		return code
	}
	if c.parent {
		return c.serveParent(fs.Args(), stdout, stderr)
	}
	if err := c.check(fs.Args(), time.Now(), fs.Changed); err != nil {
		return fail(stderr, "vesload: consume", usage.Wrap(err))
	}
	res, err := c.follow(stderr)
	if err != nil {
		return fail(stderr, "vesload: consume", err)
	}
	if err := files.WriteResult(c.output, stdout, res); err != nil {
		return fail(stderr, "vesload: consume", err)
	}
	if c.resultDir != "" {
		if err := files.SaveResult(context.Background(), filepath.Join(c.resultDir, files.CopyName(res)), res, stderr); err != nil {
			return fail(stderr, "vesload: consume", err)
		}
	}
	d := res.Delivery
	fmt.Fprintf(stderr, "vesload: consume: %d events of run %s delivered to %s (%d duplicates, %d foreign records)\n",
		d.Delivered, c.a.Plan.RunID, d.Source, d.Duplicates, d.Foreign)
	return exitOK
}

// check validates the flags (every error names its flag, exit 2) and
// completes the follower: its start, group and event count
// (delivery.Alone's Prepare and Group).
func (c *consumeCmd) check(args []string, now time.Time, changed func(string) bool) error {
	if len(args) != 1 {
		return usagef("want one URL: kafka://HOST:PORT/TOPIC or dmaap://HOST:PORT/events/TOPIC/GROUP/ID (usage: %s)", consumeSynopsis)
	}
	c.kafka.url, c.a.Grace, c.a.Start = args[0], c.kafka.grace, now
	if err := c.checkRendezvous(changed); err != nil {
		return err
	}
	if err := checkResultDir(c.resultDir); err != nil {
		return err
	}
	if err := c.a.Prepare(); err != nil {
		return err
	}
	if err := c.kafka.check(); err != nil {
		return err
	}
	if c.startAt != "" {
		var err error
		if c.a.Start, err = engine.ParseStartAt(c.startAt, now); err != nil {
			return usagef("--start-at %v", err)
		}
	}
	if c.kafka.group == "" {
		c.kafka.group = c.a.Group()
	}
	return nil
}

// checkRendezvous checks --rendezvous and makes the follower a member
// of the run's start agreement; what it learns there is refused as flags.
func (c *consumeCmd) checkRendezvous(changed func(string) bool) error {
	if c.rendezvous == "" {
		if changed("ready-timeout") {
			return usagef("--ready-timeout goes with --rendezvous")
		}
		return nil
	}
	for _, f := range []string{"duration", "start-at", "rps", "batch", "events"} {
		if changed(f) {
			return usagef("--%s with --rendezvous: shard 0 tells the consumer the run's start and plan", f)
		}
	}
	host, port, err := net.SplitHostPort(c.rendezvous)
	if err != nil || host == "" || port == "" {
		return usagef("--rendezvous %q: want HOST:PORT of shard 0, e.g. vesload-r42-0.vesload-r42:9465", c.rendezvous)
	}
	if c.readyTimeout <= 0 {
		return usagef("--ready-timeout %v: want a positive duration", c.readyTimeout)
	}
	c.a.Agree = c.agree
	return nil
}

// agree joins the run's start agreement at --rendezvous as its consumer
// (rendezvous.JoinAnswer) and returns what shard 0 tells it.
func (c *consumeCmd) agree(ctx context.Context) (delivery.Agreed, time.Time, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.readyTimeout, fmt.Errorf("the run did not start within --ready-timeout %v", c.readyTimeout))
	defer cancel()
	a, err := rendezvous.JoinAnswer(ctx, &http.Client{}, "http://"+c.rendezvous,
		rendezvous.Ready{RunID: c.a.Plan.RunID, Consumer: true}, clock.System{})
	if err != nil {
		return delivery.Agreed{}, time.Time{}, fmt.Errorf("no start: %w", err)
	}
	var ag delivery.Agreed
	if err := json.Unmarshal(a.Follow, &ag); err != nil {
		return delivery.Agreed{}, time.Time{}, fmt.Errorf("the run's plan from %s: %w", c.rendezvous, err)
	}
	return ag, a.Start, nil
}

// follow connects (a failure is exit 1), reads until the run's end plus
// the grace, --expect events or a signal, and builds the result
// (delivery.Alone). With --rps, request r is due r/rps after the start.
func (c *consumeCmd) follow(stderr io.Writer) (*result.Result, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c.a.Tool = result.Tool{Name: "vesload", Version: version}
	open := c.kafka.open
	if c.a.Agree != nil {
		open = func(cfg delivery.Config) (delivery.Source, string, error) {
			src, name, err := c.kafka.open(cfg)
			if err == nil {
				fmt.Fprintf(stderr, "vesload: consume: reading %s: joining the start of run %s at %s (up to --ready-timeout %v)\n",
					c.kafka.url, c.a.Plan.RunID, c.rendezvous, c.readyTimeout)
			}
			return src, name, err
		}
	}
	return c.a.Follow(ctx, open, func(end time.Time) {
		fmt.Fprintf(stderr, "vesload: consume: following run %s on %s until %s (the run's end plus %v; SIGTERM stops)\n",
			c.a.Plan.RunID, c.kafka.url, end.UTC().Format(time.RFC3339), c.a.Grace)
	})
}

// serveParent follows for the run or hv command that started this
// process (--parent): the plan, the start and the end come on stdin, the
// figures go to stdout (delivery.Serve). It ends with the run: at the
// end of stdin, or at SIGTERM (the parent-death signal).
func (c *consumeCmd) serveParent(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return fail(stderr, "vesload: consume", usagef("want one URL"))
	}
	c.kafka.url = args[0]
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := delivery.Serve(ctx, os.Stdin, stdout, c.kafka.grace, c.kafka.open, isUsage); err != nil {
		return exitRun
	}
	return exitOK
}
