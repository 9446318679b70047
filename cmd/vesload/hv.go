package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

const hvSynopsis = "vesload hv [--addr HOST:PORT] [--producers N] [--messages M] [--size B] [--interval D | --rate R] [flags]"

// hvOptions holds the flags of `vesload hv`.
type hvOptions struct {
	profile                   string
	addr, domain, runID       string
	producers, messages       int
	size                      int
	interval, duration        time.Duration
	rate                      float64
	tls                       tlsconf.Options
	dialTimeout, writeTimeout time.Duration
	reportFiles
	thresholds         []string
	quiet, allowErrors bool
	settle             time.Duration
	target             *hvTargetFlags
	metricsAddr        string
	consume            consumeOptions
	shard              shardOptions
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
	fs.DurationVar(&o.writeTimeout, "write-timeout", hv.DefaultWriteTimeout, "a write blocked longer drops the connection (it is re-made)")
	fs.DurationVar(&o.settle, "settle", 5*time.Second, "how long to wait for the receiver (the built-in emulator, or the collector through --target-metrics) to count what was written")
	o.target = addHVTargetFlags(fs)
	addShardTiming(fs, &o.shard, "run shard I of N of the producers (producers p ≡ I mod N, with their run-wide numbers)")
	fs.StringArrayVar(&o.thresholds, "threshold", nil, "CI gate such as 'hv.lost==0' or 'hv.peak_mbps>4' (repeatable; exit 3 when one fails)")
	o.reportFiles.addFlags(fs)
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve vesload's own Prometheus metrics at http://ADDR/metrics during the run")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress on stderr")
	fs.BoolVar(&o.allowErrors, "allow-errors", false, "let a run pass in which nothing was written, messages were lost to a disconnect, or the observed receiver got or kept none (without it that run fails, exit 3)")
	addConsumeFlags(fs, &o.consume)
	return fs
}

// runHV runs HV-VES producers until done or SIGINT/SIGTERM.
func runHV(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return hvMain(ctx, args, stdout, stderr)
}

// hvMain is runHV with the stop signal as a context, for tests.
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
		fmt.Fprintf(stderr, "vesload hv: %v\n", err)
		var u usageError
		if errors.As(err, &u) {
			return exitUsage
		}
		return exitRun
	}
	return code
}

// hvConfig turns the flags (over a profile) into the producers' config.
func hvConfig(o *hvOptions, changed func(string) bool) (hv.Config, []string, error) {
	gates := o.thresholds
	if o.profile != "" {
		var err error
		if gates, err = overlayHVProfile(o, changed); err != nil {
			return hv.Config{}, nil, err
		}
	}
	cfg := hv.Config{Addr: o.addr, Producers: o.producers, Messages: o.messages, Size: o.size,
		Interval: o.interval, Domain: o.domain, RunID: o.runID, DialTimeout: o.dialTimeout, WriteTimeout: o.writeTimeout}
	if changed("rate") {
		if changed("interval") {
			return cfg, nil, usagef("--rate and --interval: give only one")
		}
		d, err := hv.IntervalForRate(o.rate, max(o.producers, 1))
		if err != nil {
			return cfg, nil, usagef("--rate: %v", err)
		}
		cfg.Interval = d
	}
	if changed("duration") {
		if changed("messages") {
			return cfg, nil, usagef("--duration and --messages: give only one")
		}
		if o.duration <= 0 || cfg.Interval <= 0 {
			return cfg, nil, usagef("--duration: want a positive duration, got %v", o.duration)
		}
		cfg.Messages = int(min(int64(o.duration/cfg.Interval), 1<<31-1))
	}
	o.shard.runID = o.runID
	sp, err := o.shard.resolve(time.Now(), os.Getenv)
	if err != nil {
		return cfg, nil, err
	}
	cfg.Shard, cfg.Start = sp.shard, sp.start
	if cfg.RunID == "" {
		cfg.RunID = ves.NewRunID() // the same 64-bit ids as REST runs
	}
	if err := ves.CheckRunID(cfg.RunID); err != nil {
		return cfg, nil, usagef("--run-id: %v", err)
	}
	for _, t := range []struct {
		flag string
		d    time.Duration
	}{{"--dial-timeout", o.dialTimeout}, {"--write-timeout", o.writeTimeout}, {"--settle", o.settle}} {
		if t.d < 0 {
			return cfg, nil, usagef("%s: must not be negative, got %v", t.flag, t.d)
		}
	}
	return cfg, gates, nil
}

// overlayHVProfile takes producers, messages, interval, size and
// thresholds from a profile with load.producers, unless a flag sets them.
func overlayHVProfile(o *hvOptions, changed func(string) bool) ([]string, error) {
	p, err := profiles.Load(o.profile)
	if err != nil {
		return nil, usagef("--profile: %v", err)
	}
	pr := p.Load.Producers
	if pr == nil {
		return nil, usagef("--profile %s: no load.producers section (an HV-VES run needs producers, messages and an interval)", o.profile)
	}
	if !changed("producers") && pr.Count > 0 {
		o.producers = pr.Count
	}
	if !changed("messages") && pr.Messages > 0 {
		o.messages = int(min(pr.Messages, 1<<31-1))
	}
	if !changed("interval") && !changed("rate") && pr.Interval > 0 {
		o.interval = pr.Interval
	}
	if !changed("size") && len(p.Requests) > 0 && p.Requests[0].Size > 0 {
		o.size = p.Requests[0].Size
	}
	return append(append([]string(nil), p.Thresholds...), o.thresholds...), nil
}

// hvExecute runs the producers, against the built-in emulator when no
// address is given, and writes the result.
func hvExecute(ctx context.Context, o *hvOptions, changed func(string) bool, stdout, stderr io.Writer) (int, error) {
	cfg, exprs, err := hvConfig(o, changed)
	if err != nil {
		return 0, err
	}
	if err := checkOutputPaths(o.reportFiles.paths()); err != nil {
		return 0, err
	}
	gates, err := parseThresholds(exprs)
	if err != nil {
		return 0, err
	}
	if err := o.consume.check(); err != nil {
		return 0, err
	}
	probe := cfg
	if probe.Addr == "" {
		probe.Addr = "127.0.0.1:1" // checked before an emulator is started for it
	}
	if err := probe.Check(); err != nil {
		return 0, usageError{err}
	}
	var emu *emulator
	if cfg.Addr == "" {
		if o.target.metrics != "" || len(o.target.pids) > 0 || len(o.target.procs) > 0 {
			return 0, usagef("--target-metrics, --target-pid and --target-process need --addr (the built-in emulator is observed directly)")
		}
		if o.tls.Enabled() {
			return 0, usagef("--cert, --key, --cacert and --insecure need --addr (the built-in emulator speaks plain TCP)")
		}
		if emu, err = startEmulator(stderr); err != nil {
			return 0, err
		}
		defer emu.Close()
		cfg.Addr = emu.HVAddr()
		fmt.Fprintf(stderr, "vesload hv: no --addr given: sending to the built-in HV-VES emulator at %s\nvesload hv: %s\n", cfg.Addr, emu.describe())
	}
	if o.tls.Enabled() {
		if cfg.TLS, err = o.tls.Client(""); err != nil {
			return 0, usageError{err}
		}
	}
	var fl *follow
	switch {
	case cfg.Shard.Whole():
		fl, err = startHVFollow(&o.consume, &cfg, emu)
	case o.consume.url != "":
		// A shard's messages share the run id with the other shards':
		// its tally would count theirs as its own.
		err = usagef("--consume: not available with --shard yet; consume the output topic once, beside the shards")
	}
	if err != nil {
		return 0, err
	}
	if fl != nil {
		defer fl.stop()
	}
	watch, err := o.target.start(ctx, o.tls)
	if err != nil {
		return 0, err
	}
	live := &hv.Live{}
	liveMetrics, err := startHVLive(o.metricsAddr, &cfg, live, stderr, o.quiet)
	if err != nil {
		watch.stop()
		return 0, err
	}
	defer liveMetrics.close()
	stopProgress := hvProgress(stderr, o.quiet, cfg, live)
	self := watchSelf()
	out, err := hv.Run(ctx, cfg, live)
	stopProgress()
	if err != nil {
		self.stop(&result.Generator{})
		watch.stop()
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "vesload hv: interrupted while connecting: nothing was sent")
			return exitInterrupted, nil
		}
		return 0, err
	}
	res, err := out.Result()
	if err != nil {
		self.stop(&result.Generator{})
		watch.stop()
		return 0, err
	}
	self.stop(&res.Generator)
	watch.finish(res, out.Totals().Written, o.settle)
	res.Tool = result.Tool{Name: "vesload", Version: version}
	res.Config.Profile, res.Config.Emulator, res.Config.Thresholds = o.profile, emu != nil, exprs
	res.Config.Digest = cfg.Digest()
	if emu != nil {
		res.HV.Receiver = emu.hvView(out.Totals().Written, o.settle)
	}
	note := func(s string) {
		if !o.quiet {
			fmt.Fprintf(stderr, "vesload hv: %s\n", s)
		}
	}
	if err := fl.finishExpected(res, out.Totals().Written, note); err != nil {
		return 0, err
	}
	res.Config.AllowErrors = o.allowErrors
	verdict.Judge(res, verdict.Options{Gates: gates, AllowErrors: o.allowErrors})
	return hvFinish(o, res, stdout, stderr)
}

// hvFinish writes the outputs, prints the summary and picks the exit code.
func hvFinish(o *hvOptions, res *result.Result, stdout, stderr io.Writer) (int, error) {
	if err := o.reportFiles.write(context.Background(), res, stdout, stderr); err != nil {
		return 0, err
	}
	summaryOut := stdout
	if o.output == "-" {
		summaryOut = stderr
	}
	if err := report.Text(summaryOut, res, report.TextOptions{Color: isTerminal(summaryOut)}); err != nil {
		return 0, fmt.Errorf("print summary: %w", err)
	}
	return exitCode(res, func(s string) { fmt.Fprintln(stderr, "vesload hv: "+s) }), nil
}

// hvProgress prints a progress line every second on a terminal, every
// ten seconds otherwise; the returned func stops it.
func hvProgress(w io.Writer, quiet bool, cfg hv.Config, live *hv.Live) func() {
	if quiet {
		return func() {}
	}
	every := 10 * time.Second
	if isTerminal(w) {
		every = time.Second
	}
	total := int64(cfg.Shard.Share(int64(cfg.Producers))) * int64(cfg.Messages)
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		var lastBytes int64
		for {
			select {
			case <-done:
				return
			case <-t.C:
				b := live.Bytes.Load()
				fmt.Fprintf(w, "vesload hv: %s: %d/%d written, %.2f MB/s, %d failed, %d not sent, %d reconnects\n",
					time.Since(start).Round(time.Second), live.Written.Load(), total,
					float64(b-lastBytes)/every.Seconds()/1e6, live.Failed.Load(), live.NotSent.Load(), live.Reconnects.Load())
				lastBytes = b
			}
		}
	}()
	return func() { close(done); <-finished }
}
