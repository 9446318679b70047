package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/transport/hv"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/session"
	"github.com/vesload/vesload/testserver/builtin"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

const hvSynopsis = "vesload hv [--addr HOST:PORT] [--producers N] [--messages M] [--size B] [--interval D | --rate R] [flags]"

// hvOptions holds the flags of `vesload hv`: the producers' own, and
// (run) those every run of the engine shares with `vesload run`.
type hvOptions struct {
	profile                   string
	addr, domain, runID       string
	producers, messages       int
	size                      int
	interval, duration        time.Duration
	rate                      float64
	tls                       tlsconf.Options
	dialTimeout, writeTimeout time.Duration
	// notes are the set-up's warnings, for stderr and the result.
	notes  []string
	settle time.Duration
	shard  shardOptions
	run    runOptions
	// emulator, when set, is a built-in emulator already running (a
	// capacity search's, shared by its steps): the run sends to it and
	// leaves it running.
	emulator *builtin.Emulator
}

func hvFlags(o *hvOptions) *pflag.FlagSet {
	fs := newFlagSet("hv")
	fs.StringVar(&o.profile, "profile", "", "a built-in producer profile (see 'vesload profiles') or a YAML file with load.producers; flags override it")
	fs.StringVar(&o.addr, "addr", "", "HV-VES collector HOST:PORT (default: a built-in HV-VES emulator on 127.0.0.1)")
	fs.IntVar(&o.producers, "producers", 2, "independent producers, one connection each")
	fs.IntVar(&o.messages, "messages", 1000, "messages per producer")
	fs.IntVar(&o.size, "size", 8192, "bytes of every VesEvent (the WTP payload; each frame is 12 more)")
	fs.DurationVar(&o.interval, "interval", 10*time.Millisecond, "time between two messages of one producer")
	fs.DurationVar(&o.duration, "duration", 0, "instead of --messages: send for this long (messages per producer = duration / interval)")
	fs.Float64Var(&o.rate, "rate", 0, "total messages per second over all producers (instead of --interval)")
	fs.StringVar(&o.domain, "domain", "perf3gpp", "commonEventHeader.domain (the collector routes perf3gpp to HV_VES_PERF3GPP)")
	fs.StringVar(&o.runID, "run-id", "", "eventId prefix (default: random); eventIds are <run-id>-<n>, n numbering every message of the run in due-time order")
	fs.StringVar(&o.tls.CAFile, "cacert", "", "PEM CA bundle to verify the collector with (turns TLS on)")
	fs.StringVar(&o.tls.CertFile, "cert", "", "client certificate: PEM (with --key) or a PKCS#12 store (with --cert-pass-file); turns TLS on")
	fs.StringVar(&o.tls.KeyFile, "key", "", "PEM client key")
	fs.StringVar(&o.tls.CertPassFile, "cert-pass-file", "", "file holding the PKCS#12 store's password")
	fs.BoolVar(&o.tls.Insecure, "insecure", false, "TLS without verifying the collector's certificate")
	fs.DurationVar(&o.dialTimeout, "dial-timeout", hv.DefaultDialTimeout, "bound on making a connection (TLS handshake included)")
	fs.DurationVar(&o.writeTimeout, "write-timeout", hv.DefaultWriteTimeout, "a write blocked longer drops the connection (it is re-made); also how long a message may wait for its producer, and the drain at the end")
	fs.DurationVar(&o.settle, "settle", 5*time.Second, "how long to wait for the receiver (the built-in emulator, or the collector through --target-metrics) to count what was written")
	addShardTiming(fs, &o.shard, "run shard I of N of the producers (producers p ≡ I mod N, with their run-wide numbers)")
	fs.StringArrayVar(&o.run.thresholds, "threshold", nil, "CI gate such as 'hv.lost==0' or 'hv.peak_mbps>4' (repeatable; exit 3 when one fails)")
	fs.BoolVar(&o.run.allowErrors, "allow-errors", false, "let a run pass in which nothing was written, messages were lost to a disconnect, or the observed receiver got or kept none (without it that run fails, exit 3)")
	addLabelFlag(fs, &o.run.labels)
	addObserverFlags(fs, &o.run)
	addConsumeFlags(fs, &o.run.consume)
	return fs
}

// runHV runs HV-VES producers until done or SIGINT/SIGTERM (as for
// every run, the session decides what a signal does: the first stops
// and drains, a second aborts).
func runHV(args []string, stdout, stderr io.Writer) int {
	return hvMain(context.Background(), args, stdout, stderr)
}

// hvMain is runHV with a stop as a context, for tests: its end is a
// first signal.
func hvMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o hvOptions
	fs := hvFlags(&o)
	if code, done := parseCommand(fs, args, hvSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vesload hv: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	code, err := hvExecute(ctx, &o, fs.Changed, stdout, stderr)
	if err != nil {
		return fail(stderr, "vesload hv", err)
	}
	return code
}

// hvConfig turns the flags (over a profile) into the producers' config,
// its gates and its shard's plan (rendezvous.Plan).
func hvConfig(o *hvOptions, changed func(string) bool) (hv.Config, []string, *rendezvous.Plan, error) {
	gates := o.run.thresholds
	if o.addr != "" {
		if err := scenario.CheckAddr(o.addr); err != nil {
			return hv.Config{}, nil, nil, usagef("--addr %v", err)
		}
	}
	cfg := hv.Config{Addr: o.addr, Producers: o.producers, Messages: o.messages, Size: o.size,
		Interval: o.interval, Domain: o.domain, RunID: o.runID, DialTimeout: o.dialTimeout, WriteTimeout: o.writeTimeout}
	if o.profile != "" {
		p, err := profiles.Load(o.profile)
		if err != nil {
			return cfg, nil, nil, usagef("--profile: %v", err)
		}
		po, err := scenario.HVOverrides(p)
		if err != nil {
			return cfg, nil, nil, usagef("--profile %s: %v", o.profile, err)
		}
		_ = cfg.Apply(po) // counts and an interval only: cannot fail
		gates = append(append([]string(nil), p.Thresholds...), gates...)
		o.run.profileLabels = p.Labels
		for _, w := range scenario.HVIgnored(p) {
			o.notes = append(o.notes, "--profile "+o.profile+": "+w)
		}
	}
	err := cfg.Apply(hv.Overrides{Producers: given(changed, "producers", o.producers), Messages: given(changed, "messages", o.messages),
		Size: given(changed, "size", o.size), Interval: given(changed, "interval", o.interval),
		Rate: given(changed, "rate", o.rate), Duration: given(changed, "duration", o.duration)})
	if err != nil {
		return cfg, nil, nil, usage.Wrap(err)
	}
	if err := cfg.CheckSchedule(); err != nil {
		return cfg, nil, nil, usage.Wrap(err)
	}
	o.shard.runID = o.runID
	sp, err := o.shard.resolve(time.Now(), os.Getenv)
	if err != nil {
		return cfg, nil, nil, err
	}
	cfg.Shard, cfg.Start = sp.Shard, sp.Start
	if cfg.RunID == "" {
		cfg.RunID = ves.NewRunID() // the same 64-bit ids as REST runs
	}
	if err := ves.CheckRunID(cfg.RunID); err != nil {
		return cfg, nil, nil, usagef("--run-id: %v", err)
	}
	for _, t := range []struct {
		flag string
		d    time.Duration
	}{{"--dial-timeout", o.dialTimeout}, {"--write-timeout", o.writeTimeout}, {"--settle", o.settle}} {
		if t.d < 0 {
			return cfg, nil, nil, usagef("%s: must not be negative, got %v", t.flag, t.d)
		}
	}
	return cfg, gates, sp, nil
}

// hvExecute runs the producers through the engine, against the
// built-in emulator when no address is given, and finishes as every run
// does (package session): one runner, one progress line, one finish path.
func hvExecute(ctx context.Context, o *hvOptions, changed func(string) bool, stdout, stderr io.Writer) (int, error) {
	early := catchEarlyHangUp()
	defer early.stop()
	plan, so, release, err := hvSetUp(o, changed, stderr)
	defer release()
	if err != nil {
		return 0, err
	}
	return runSession(ctx, "vesload hv", plan, so, stdout, early)
}

// hvSetUp checks the flags, starts the emulator when there is no
// address, builds the engine's configuration with the HV-VES transport
// and the session's options: the same observers as a REST run, plus the
// receiver's view (the emulator's or the collector's counters) and the
// delivery follower, which complete the result before it is judged.
// release stops the emulator and the counters' follower; it is to be
// called even after an error.
func hvSetUp(o *hvOptions, changed func(string) bool, stderr io.Writer) (_ *scenario.Plan, _ session.Options, release func(), err error) {
	ro := &o.run
	var so session.Options
	var closers []func()
	release = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	cfg, exprs, rv, err := hvConfig(o, changed)
	if err != nil {
		return nil, so, release, err
	}
	if err := ro.checkObservers(); err != nil {
		return nil, so, release, err
	}
	if so, err = ro.sessionOptions(exprs, stderr); err != nil {
		return nil, so, release, err
	}
	if w := unroutedDomain(cfg.Domain); w != "" {
		o.notes = append(o.notes, w)
	}
	for _, w := range o.notes {
		so.Notes = append(so.Notes, w)
		fmt.Fprintln(stderr, "vesload hv: warning: "+w)
	}
	probe := cfg
	if probe.Addr == "" {
		probe.Addr = "127.0.0.1:1" // checked before an emulator is started for it
	}
	if err := probe.Check(); err != nil {
		return nil, so, release, usage.Wrap(err)
	}
	labels, err := parseLabels(o.run.profileLabels, o.run.labels) // before an emulator is started for the run
	if err != nil {
		return nil, so, release, err
	}
	emu, err := hvTarget(o, &cfg, stderr)
	if err != nil {
		return nil, so, release, err
	}
	if emu != nil {
		if emu != o.emulator {
			closers = append(closers, emu.Close)
		}
		sampleEmulator(&so.Target, emu)
		so.Emulator = emu
	}
	if o.tls.Enabled() {
		if cfg.TLS, err = o.tls.Client(""); err != nil {
			return nil, so, release, usage.Wrap(err)
		}
	}
	ec, _, err := hv.EngineConfig(cfg)
	if err != nil {
		return nil, so, release, usage.Wrap(err)
	}
	so.Target.HTTP.TLS = o.tls // for the target's https metrics endpoint
	rc := cfg.RunConfig()
	rc.Profile, rc.Emulator, rc.Thresholds, rc.Digest, rc.Labels = o.profile, emu != nil, exprs, cfg.Digest(), labels
	if emu != nil {
		rc.EmulatorSeed = emu.Seed()
	}
	if err := announceConsumer(rv, &rc, func() (delivery.Agreed, error) { return hvAgreed(&cfg), nil }); err != nil {
		return nil, so, release, err
	}
	plan := &scenario.Plan{Config: ec, RunConfig: rc, URL: rc.URL, Label: "hv-ves"}
	if !ro.quiet {
		rv.Announce(stderr, time.Now())
	}
	so.Rendezvous = rv
	if so.Delivery, err = hvFollow(&ro.consume, &cfg, emu); err != nil {
		return nil, so, release, err
	}
	// The collector counts what every shard sends: one shard, shard 0,
	// follows its counters, until they reach the whole run's messages.
	var counters *hv.CollectorFollower
	if cfg.Shard.Index == 0 {
		if counters, err = startHVCounters(context.Background(), ro.watch.targetMetrics, o.tls); err != nil {
			return nil, so, release, err
		}
	}
	closers = append(closers, counters.Stop)
	so.Labels, so.Total, so.Messages = cfg.Labels(), cfg.Span()+cfg.Interval, true
	so.Complete = func(res *result.Result) {
		written := res.HV.Sent.Written
		settled := written
		if !cfg.Shard.Whole() {
			settled = int64(cfg.Producers) * int64(cfg.Messages)
		}
		res.Warnings = append(res.Warnings, counters.Finish(res, settled, o.settle)...)
		if emu != nil {
			res.HV.Receiver = emu.HVReceiver(written, o.settle)
		}
	}
	return plan, so, release, nil
}

// unroutedDomain warns of a --domain the collector's documented routing
// sends nowhere: it drops each such message as unrouted, which a run sees
// only where the receiver is observed (the built-in emulator, or
// --target-metrics), so the warning does not wait for it. Empty for a
// routed domain.
func unroutedDomain(domain string) string {
	if domain == "" {
		return ""
	}
	// The routes are by domain, and for domain stndDefined by a namespace,
	// which vesload hv does not send.
	if _, ok := hvemu.DefaultRoutes()[domain]; ok && domain != "stndDefined" {
		return ""
	}
	return fmt.Sprintf("--domain %s: the collector's documented routing has no topic for it (it routes perf3gpp, and stndDefined events by a namespace vesload hv does not send), so it drops every message as unrouted (cause routing); only an observed receiver (the built-in emulator or --target-metrics) counts those drops",
		domain)
}

// refuseForEmulator refuses the flags that make no sense against the
// built-in emulator, which is observed directly and speaks plain TCP.
func refuseForEmulator(o *hvOptions) error {
	w := &o.run.watch
	if w.targetMetrics != "" || len(w.targetPIDs) > 0 || len(w.targetProcs) > 0 {
		return usagef("--target-metrics, --target-pid and --target-process need --addr (the built-in emulator is observed directly)")
	}
	if o.tls.Enabled() {
		return usagef("--cert, --key, --cacert and --insecure need --addr (the built-in emulator speaks plain TCP)")
	}
	return nil
}

// hvTarget starts the built-in emulator when no --addr is given (or
// takes the one already running, o.emulator) and points cfg at it; nil
// with an address.
func hvTarget(o *hvOptions, cfg *hv.Config, stderr io.Writer) (*builtin.Emulator, error) {
	if cfg.Addr != "" {
		return nil, nil
	}
	if err := refuseForEmulator(o); err != nil {
		return nil, err
	}
	emu := o.emulator
	if emu == nil {
		var err error
		if emu, err = builtin.Start(stderr); err != nil {
			return nil, err
		}
	}
	cfg.Addr = emu.HVAddr()
	fmt.Fprintf(stderr, "vesload hv: no --addr given: sending to the built-in HV-VES emulator at %s\nvesload hv: %s\n", cfg.Addr, emu.Describe())
	return emu, nil
}
