package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/child"
	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
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

// preflightTimeout bounds the consumer's first connection.
const preflightTimeout = 10 * time.Second

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
	src, err := c.options().Open(cfg.RunID, preflightTimeout)
	if err != nil {
		return nil, "", asUsage(err)
	}
	return src, c.url, nil
}

// follow is the run's delivery check: `vesload consume` in a process of
// its own (so that the generator's figures measure the generator alone),
// told the run's plan and start, and the requests answered 2xx.
type follow struct {
	loadgen.NopObserver
	proc   *child.Process
	remote *delivery.Remote
	grace  time.Duration
	batch  int
}

// followerReady bounds the follower's start: its preflight, and as long
// again for the process to come up.
const followerReady = 2 * preflightTimeout

// followerStop is how long the follower may take to stop once asked,
// before it is killed.
const followerStop = 15 * time.Second

// startFollow connects the consumer before the first request (a failure
// is exit 1, before any load) and hooks the tally into the run. It
// returns nil when nothing is to be followed.
func startFollow(c *consumeOptions, sc *profiles.Profile, pl *scenario.Plan) (*follow, error) {
	if c.url == "" {
		return nil, nil
	}
	sched, ok := pl.Config.Load.(*loadgen.Schedule)
	if !ok {
		return nil, usagef("--consume: needs an open-model load (a rate), not a concurrency ramp")
	}
	batch, err := eventsPerRequest(sc)
	if err != nil {
		return nil, err
	}
	fl, err := newFollow(c, delivery.Plan{RunID: pl.RunConfig.RunID, Events: uint64(sched.Total()) * uint64(batch),
		Batch: batch, Segments: sched.Segments()})
	if err != nil {
		return nil, err
	}
	pl.Config.Observers = append(pl.Config.Observers, fl)
	return fl, nil
}

// newFollow starts the follower process and waits until it has connected
// to the source and reads it.
func newFollow(c *consumeOptions, p delivery.Plan) (*follow, error) {
	proc, err := child.Start("the delivery follower", c.childArgs(p.RunID), os.Stderr)
	if err != nil {
		return nil, fmt.Errorf("--consume: %w", err)
	}
	rm, err := delivery.Dial(proc.Stdin(), proc, p, followerReady)
	if err != nil {
		proc.Close(followerStop)
		if errors.Is(err, delivery.ErrUsage) {
			return nil, usageError{errors.New(strings.TrimPrefix(err.Error(), delivery.ErrUsage.Error()+": "))}
		}
		return nil, err
	}
	return &follow{proc: proc, remote: rm, grace: c.grace, batch: max(p.Batch, 1)}, nil
}

// childArgs are the follower's arguments: the consume command reading
// its plan from stdin (--parent), with the run's Kafka flags.
func (c *consumeOptions) childArgs(runID string) []string {
	group := c.group
	if group == "" {
		group = "vesload-" + runID
	}
	args := []string{"consume", c.url, "--parent", "--grace", c.grace.String(), "--group", group, "--kafka-mechanism", c.mechanism}
	for _, f := range []struct{ flag, v string }{{"--kafka-user", c.user}, {"--kafka-password-file", c.passFile},
		{"--kafka-cacert", c.cacert}, {"--kafka-cert", c.cert}, {"--kafka-key", c.key}} {
		if f.v != "" {
			args = append(args, f.flag, f.v)
		}
	}
	if c.insecure {
		args = append(args, "--kafka-insecure")
	}
	return args
}

// eventsPerRequest is the events each request carries; a mix must agree.
func eventsPerRequest(sc *profiles.Profile) (int, error) {
	batch := 0
	for _, r := range sc.Requests {
		b := max(r.Batch, 1)
		if batch != 0 && b != batch {
			return 0, usagef("--consume: the requests of a mix must carry the same number of events")
		}
		batch = b
	}
	return max(batch, 1), nil
}

// Begin tells the follower the instant the schedule's clock starts:
// request n is due at start + Due(n).
func (fl *follow) Begin(t time.Time) { fl.started(t) }

// started is Begin for HV-VES runs.
func (fl *follow) started(t time.Time) { _ = fl.remote.Begin(t) } // a follower gone shows at finish

// Request marks every accepted request, so that an event lost after a 2xx
// is told apart from one whose request failed.
func (fl *follow) Request(ev *loadgen.RequestEvent) {
	if ev.Outcome == "ok" {
		fl.remote.Accept(ev.Seq)
	}
}

// finish waits out the grace for the events still due and adds the
// delivery section to the result.
func (fl *follow) finish(res *result.Result, note func(string)) error {
	if fl == nil {
		return nil
	}
	return fl.finishExpected(res, res.Requests.Sent*int64(fl.batch), note)
}

// finishExpected is finish for expected events (HV-VES: those written).
func (fl *follow) finishExpected(res *result.Result, expected int64, note func(string)) error {
	if fl == nil {
		return nil
	}
	defer fl.stop()
	// A signal ends the wait, not the process: the result is still written.
	// The handler is in place before the wait is announced, so a Ctrl-C
	// answering the announcement never finds the default action.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := fl.remote.Finish(ctx, expected, fl.grace+followerReady, func(delivered int64) {
		if delivered < expected && fl.grace > 0 {
			note(fmt.Sprintf("waiting up to %v for %d events still to be delivered (Ctrl-C stops waiting)",
				fl.grace, expected-delivered))
		}
	})
	if err != nil {
		return fmt.Errorf("--consume: %w", err)
	}
	res.Delivery = d
	res.Warnings = append(res.Warnings, delivery.Warnings(d, expected, fl.grace)...)
	return nil
}

// stop ends the follower process; it is safe more than once.
func (fl *follow) stop() {
	if fl != nil {
		fl.proc.Close(followerStop)
	}
}

// autoConsumeURL is the topic the built-in emulator publishes the run's
// events to, when the run names no target.
func autoConsumeURL(broker string, sc *profiles.Profile) string {
	if len(sc.Requests) == 0 {
		return ""
	}
	domain, ns := sc.Requests[0].Event, ""
	if domain == "stndDefined" {
		ns = "3GPP-FaultSupervision" // the built-in stndDefined event's namespace
	}
	topic := publish.Topic(domain, ns)
	if topic == "" {
		return ""
	}
	return "kafka://" + broker + "/" + topic
}

// startFollow follows the run's events: onto the --consume topic, or,
// with the built-in emulator and no --consume, onto its embedded broker
// (open-model runs only: a concurrency ramp has no due times).
func (s *runSetup) startFollow(sc *profiles.Profile, emu *emulator) error {
	c := &s.o.consume
	if sharded(s.plan) {
		// A shard's events are numbered run-wide, and the other shards'
		// share its run id: its tally would count theirs as its own.
		if c.url != "" {
			return usagef("--consume: not available with --shard yet; consume the output topic once, beside the shards")
		}
		return nil
	}
	if _, open := s.plan.Config.Load.(*loadgen.Schedule); c.url == "" && emu != nil && open {
		c.url = autoConsumeURL(emu.Brokers(), sc)
	}
	fl, err := startFollow(c, sc, s.plan)
	if err != nil || fl == nil {
		return err
	}
	s.follow = fl
	s.closers = append(s.closers, fl.stop)
	return nil
}
