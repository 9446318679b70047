package main

import (
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/session"
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
	return c.options().Check()
}

// open connects the source of the --consume URL for a tally of cfg and
// checks that it can be read (a failure is exit 1, before any load).
func (c *consumeOptions) open(cfg delivery.Config) (delivery.Source, string, error) {
	src, err := c.options().Open(cfg.RunID, delivery.PreflightTimeout)
	return src, c.url, err
}

// eventsPerRequest is the events each request carries; a mix must agree.
func eventsPerRequest(sc *profiles.Profile) (int, error) {
	n, err := sc.EventsPerRequest()
	if err != nil {
		return 0, usagef("--consume: %v", err)
	}
	return n, nil
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

// follow is how the run's events are followed (session.Delivery): onto
// the --consume topic, or, with the built-in emulator and no --consume,
// onto its embedded broker (open-model runs only: a concurrency ramp has
// no due times); nil when nothing is followed. The follower connects
// before the first request (a failure is exit 1, before any load).
func (c *consumeOptions) follow(pl *scenario.Plan, sc *profiles.Profile, emu *builtin.Emulator) (*session.Delivery, error) {
	_, open := pl.Config.Load.(*engine.Schedule)
	switch {
	case sharded(pl):
		return nil, c.refuseShard()
	case c.url == "" && emu != nil && open && len(sc.Requests) > 0:
		c.url = publish.BuiltinURL(emu.Brokers(), sc.Requests[0].Event)
	}
	if c.url == "" {
		return nil, nil
	}
	p, err := restPlan(pl, sc, "--consume")
	if err != nil {
		return nil, err
	}
	return c.delivery(p), nil
}

// restPlan is what a follower of a REST run is told (delivery.Plan): its
// events and their due times, from the whole run's schedule (before it
// is sharded). flag names the option that asked for it in errors.
func restPlan(pl *scenario.Plan, sc *profiles.Profile, flag string) (delivery.Plan, error) {
	sched, open := pl.Config.Load.(*engine.Schedule)
	if !open {
		return delivery.Plan{}, usagef("%s: needs an open-model load (a rate), not a concurrency ramp", flag)
	}
	batch, err := eventsPerRequest(sc)
	if err != nil {
		return delivery.Plan{}, err
	}
	return delivery.Plan{RunID: pl.RunConfig.RunID, Events: uint64(sched.Total()) * uint64(batch),
		Batch: batch, Segments: sched.Segments()}, nil
}

// restAgreed is what shard 0 of a REST run tells its lone consumer: the
// whole run's plan and how long it sends.
func restAgreed(pl *scenario.Plan, sc *profiles.Profile) (delivery.Agreed, error) {
	p, err := restPlan(pl, sc, "--with-consumer")
	return delivery.Agreed{Plan: p, Span: sc.Load.TotalDuration()}, err
}

// delivery is the follower of plan p as the flags configure it; its
// error lines go to the process's stderr when it stops.
func (c *consumeOptions) delivery(p delivery.Plan) *session.Delivery {
	return &session.Delivery{Options: c.options(), Grace: c.grace, Plan: p, Stderr: os.Stderr}
}
