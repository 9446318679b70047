package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/testserver/builtin"
	"github.com/vesload/vesload/testserver/publish"
)

// consumeOptions are the flags that follow the run's events onto the
// collector's output topic.
type consumeOptions struct {
	url, group                string
	grace                     time.Duration
	user, passFile, mechanism string
	cacert, cert, key         string
	insecure                  bool
}

// defaultGrace is how long after the last request events may still
// arrive before they count as lost.
const defaultGrace = 30 * time.Second

func addConsumeFlags(fs *pflag.FlagSet, c *consumeOptions) {
	fs.StringVar(&c.url, "consume", "", "follow every event onto the output topic: kafka://HOST:PORT/TOPIC (kafkas:// for TLS) or dmaap://HOST:PORT/events/TOPIC/GROUP/ID")
	fs.DurationVar(&c.grace, "consume-grace", defaultGrace, "how long after the last request an event may still arrive before it counts as lost")
	fs.StringVar(&c.group, "consume-group", "", "Kafka consumer group (default vesload-<run id>, deleted after the run)")
	addKafkaFlags(fs, c)
}

// addKafkaFlags adds the flags that reach the brokers, shared by run
// --consume and the consume command.
func addKafkaFlags(fs *pflag.FlagSet, c *consumeOptions) {
	fs.StringVar(&c.user, "kafka-user", "", "SASL user for --consume (also DMaaP basic auth)")
	fs.StringVar(&c.passFile, "kafka-password-file", "", "file holding the SASL password")
	fs.StringVar(&c.mechanism, "kafka-mechanism", kafkaconf.SCRAMSHA512, "SASL mechanism: PLAIN, SCRAM-SHA-512 or SCRAM-SHA-256")
	fs.StringVar(&c.cacert, "kafka-cacert", "", "PEM CA bundle to verify the brokers (turns TLS on)")
	fs.StringVar(&c.cert, "kafka-cert", "", "client certificate for the brokers: PEM (with --kafka-key) or PKCS#12")
	fs.StringVar(&c.key, "kafka-key", "", "PEM key of --kafka-cert")
	fs.BoolVar(&c.insecure, "kafka-insecure", false, "skip TLS verification of the brokers")
}

// options are the flags as delivery.Options.
func (c *consumeOptions) options() delivery.Options {
	return delivery.Options{URL: c.url, Group: c.group, User: c.user, PasswordFile: c.passFile, Mechanism: c.mechanism,
		TLS: tlsconf.Options{CAFile: c.cacert, CertFile: c.cert, KeyFile: c.key, Insecure: c.insecure}}
}

// check validates the flags before anything starts; every error names
// its flag (exit 2).
func (c *consumeOptions) check() error {
	if c.grace < 0 {
		return usagef("--consume-grace: must not be negative, got %v", c.grace)
	}
	return asUsage(c.options().Check())
}

// asUsage makes the options' errors bad usage (exit 2).
func asUsage(err error) error {
	if errors.As(err, new(*delivery.OptionError)) {
		return usageError{err}
	}
	return err
}

// open connects the source of the --consume URL for a tally of cfg and
// checks that it can be read (a failure is exit 1, before any load).
func (c *consumeOptions) open(cfg delivery.Config) (delivery.Source, string, error) {
	src, err := c.options().Open(cfg.RunID, delivery.PreflightTimeout)
	return src, c.url, asUsage(err)
}

// follow is the run's delivery check (delivery.Child); nil when nothing
// is followed.
type follow struct{ *delivery.Child }

// newFollow starts the follower process and waits until it reads.
func newFollow(c *consumeOptions, p delivery.Plan) (*follow, error) {
	ch, err := delivery.StartChild(c.options(), c.grace, p, os.Stderr)
	if err != nil {
		return nil, asUsage(err)
	}
	return &follow{ch}, nil
}

// eventsPerRequest is the events each request carries; a mix must agree.
func eventsPerRequest(sc *profiles.Profile) (int, error) {
	n, err := sc.EventsPerRequest()
	if err != nil {
		return 0, usagef("--consume: %v", err)
	}
	return n, nil
}

// finish waits out the grace for the events still due and adds the
// delivery section to the result.
func (fl *follow) finish(res *result.Result, note func(string)) error {
	if fl == nil {
		return nil
	}
	return fl.finishExpected(res, fl.Expected(res), note)
}

// finishExpected is finish for expected events (HV-VES: those written).
// A signal ends the wait, not the process: the result is still written.
// The handler is in place before the wait is announced, so a Ctrl-C
// answering the announcement never finds the default action.
func (fl *follow) finishExpected(res *result.Result, expected int64, note func(string)) error {
	if fl == nil {
		return nil
	}
	defer fl.stop()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return fl.Finish(ctx, res, expected, note)
}

// stop ends the follower process; it is safe more than once.
func (fl *follow) stop() {
	if fl != nil {
		fl.Close()
	}
}

// refuseShard is what a shard does about delivery: it follows none, and
// --consume is refused. A shard's events are numbered run-wide and the
// other shards' share its run id: its tally would count theirs as its own.
func (c *consumeOptions) refuseShard() error {
	if c.url != "" {
		return usagef("--consume: not available with --shard yet; consume the output topic once, beside the shards")
	}
	return nil
}

// startFollow follows the run's events: onto the --consume topic, or,
// with the built-in emulator and no --consume, onto its embedded broker
// (open-model runs only: a concurrency ramp has no due times). It
// connects before the first request (a failure is exit 1, before any
// load) and hooks the tally into the run.
func (s *runSetup) startFollow(sc *profiles.Profile, emu *builtin.Emulator) error {
	c := &s.o.consume
	sched, open := s.plan.Config.Load.(*loadgen.Schedule)
	switch {
	case sharded(s.plan):
		return c.refuseShard()
	case c.url == "" && emu != nil && open && len(sc.Requests) > 0:
		c.url = publish.BuiltinURL(emu.Brokers(), sc.Requests[0].Event)
	}
	if c.url == "" {
		return nil
	}
	if !open {
		return usagef("--consume: needs an open-model load (a rate), not a concurrency ramp")
	}
	batch, err := eventsPerRequest(sc)
	if err != nil {
		return err
	}
	fl, err := newFollow(c, delivery.Plan{RunID: s.plan.RunConfig.RunID, Events: uint64(sched.Total()) * uint64(batch),
		Batch: batch, Segments: sched.Segments()})
	if err != nil {
		return err
	}
	s.plan.Config.Observers = append(s.plan.Config.Observers, fl)
	s.follow = fl
	s.closers = append(s.closers, fl.stop)
	return nil
}
