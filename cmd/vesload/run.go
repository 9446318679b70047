package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/fdlimit"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/output/observe"
	"github.com/vesload/vesload/loadgen/output/outputs"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
	"github.com/vesload/vesload/session"
	"github.com/vesload/vesload/testserver"
	"github.com/vesload/vesload/testserver/builtin"
)

// runOptions holds the flags of `vesload run`.
type runOptions struct {
	profile     string
	url         string
	rps         float64
	duration    time.Duration
	pool        int
	poolWait    time.Duration
	timeout     time.Duration
	keepAlive   bool
	headers     []string
	user        string
	passFile    string
	cacert      string
	cert, key   string
	certPass    string
	insecure    bool
	noPreflight bool
	keepGoing   bool

	event     string
	eventSize int
	batch     int
	bodyFile  string
	rawBody   bool
	dataFile  string
	dataPer   string
	vars      []string

	files      files.Set
	quiet      bool
	verbose    bool
	checkpoint time.Duration
	thresholds []string
	abortOn    []string
	// expectStatus and allowErrors say what counts as success, and
	// whether a run in which nothing succeeded may still pass.
	expectStatus []string
	allowErrors  bool
	// labels are the --label flags; profileLabels a profile's labels
	// where the command reads the profile itself (hv).
	labels        []string
	profileLabels map[string]string
	jtl           string
	hdrLog        string

	watch    watchOptions
	consume  consumeOptions
	outs     *outputs.Set
	shard    shardOptions
	dash     dashboardOptions
	baseline baselineOptions
	dry      dryRunOptions

	// emulator, when set, is a built-in emulator already running (a
	// capacity search starts one for all its steps): setUp sends to it
	// instead of starting one, and its starter closes it.
	emulator *builtin.Emulator
}

func runFlags(o *runOptions) *pflag.FlagSet {
	fs := newFlagSet("run")
	fs.StringVar(&o.profile, "profile", "", "scenario: a built-in profile name (see 'vesload profiles') or a YAML file; flags override its values")
	fs.StringVar(&o.url, "url", "", "VES event listener URL, e.g. https://collector:8443/eventListener/v7 (default: a built-in emulator on 127.0.0.1)")
	fs.Float64Var(&o.rps, "rps", 10, "requests per second (open model: the schedule never waits for the target)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to send")
	fs.IntVar(&o.pool, "pool", 64, "maximum connections; a due request finding none free is a pool_exhausted error")
	fs.DurationVar(&o.poolWait, "pool-wait", 0, "how long a due request may wait for a free connection")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "per-request timeout, also the drain limit at the end")
	fs.BoolVar(&o.keepAlive, "keepalive", true, "reuse connections (--keepalive=false opens one per request)")
	fs.StringArrayVarP(&o.headers, "header", "H", nil, "extra request header 'Name: value' (repeatable)")
	fs.StringVar(&o.user, "user", "", "basic auth user")
	fs.StringVar(&o.passFile, "password-file", "", "file holding the basic auth password (else $VESLOAD_PASSWORD)")
	fs.StringVar(&o.cacert, "cacert", "", "PEM CA bundle to verify the target with")
	fs.StringVar(&o.cert, "cert", "", "client certificate: PEM (with --key) or a PKCS#12 store such as client.p12 (with --cert-pass-file)")
	fs.StringVar(&o.key, "key", "", "PEM client key")
	fs.StringVar(&o.certPass, "cert-pass-file", "", "file holding the password of a PKCS#12 --cert store")
	fs.BoolVar(&o.insecure, "insecure", false, "skip TLS certificate verification")
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "start without first connecting to the target and sending it one request of the run")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "run on when every one of the first requests (first 5 s, at least 20) fails with one class (without it the run stops there, exit 3)")
	fs.StringVar(&o.event, "event", "fault", "built-in VES event domain: "+strings.Join(ves.Domains(), ", "))
	fs.IntVar(&o.eventSize, "event-size", 0, "pad each request body to about this many bytes, shared among the events of a --batch (0: natural size)")
	fs.IntVar(&o.batch, "batch", 0, "send N events per request as an eventList to <url>/eventBatch")
	fs.StringVar(&o.bodyFile, "body-file", "", "body template file (see loadgen/ves/TEMPLATES.md)")
	fs.BoolVar(&o.rawBody, "raw-body", false, "send body templates as written even when they do not render to JSON (with a warning); profile key raw_body")
	fs.StringVar(&o.dataFile, "data-file", "", "CSV `FILE` whose rows bind template variables, one row per request in turn (the first line names the columns: ${sourceName}, …)")
	fs.StringVar(&o.dataPer, "data-per", "request", "who takes the next --data-file row: request (each request in turn) or worker (each connection of the pool keeps one row, worker i row i)")
	fs.StringArrayVar(&o.vars, "set", nil, "template variable NAME=VALUE (repeatable)")
	fs.StringArrayVar(&o.thresholds, "threshold", nil, "CI gate such as 'p99<500ms' or 'error_rate<1%' (repeatable; exit 3 when one fails)")
	fs.StringArrayVar(&o.expectStatus, "expect-status", nil, "status that counts as success: a code such as 202 or a class such as 2xx (repeatable; default 2xx); any other status is an error of its own class")
	addLabelFlag(fs, &o.labels)
	fs.BoolVar(&o.allowErrors, "allow-errors", false, "let a run pass that breaks a built-in rule: no request succeeded, or with --consume none of its events was delivered (without it such a run fails, exit 3)")
	addObserverFlags(fs, o)
	addConsumeFlags(fs, &o.consume)
	addShardFlags(fs, &o.shard)
	addBaselineFlags(fs, &o.baseline)
	addDryRunFlags(fs, &o.dry)
	return fs
}

// addObserverFlags adds the flags of what watches a run of the engine and
// what it writes, the same for every command that runs it (`run`, `hv`):
// report files, progress, failures, checkpoints, the abort gates, the JTL
// and HdrHistogram log, the target's sampling and the live metrics, the
// outputs of the table (loadgen/output/outputs) and the live page.
func addObserverFlags(fs *pflag.FlagSet, o *runOptions) {
	addFileFlags(fs, &o.files)
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress on stderr")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "log the first failing request of each error class to stderr (HTTP: request and response, credentials hidden, bodies cut to 2 KiB)")
	fs.DurationVar(&o.checkpoint, "checkpoint", time.Minute, "with -o FILE, rewrite FILE with the result so far this often (0: only at the end)")
	fs.StringArrayVar(&o.abortOn, "abort-on-fail", nil, "stop the run early (exit 3) when this gate fails over the last 10 s, e.g. 'error_rate<5%' (repeatable)")
	fs.StringVar(&o.jtl, "jtl", "", "write every request as a JMeter JTL (CSV) row to FILE")
	fs.StringVar(&o.hdrLog, "hdr-log", "", "write per-second latency histograms as an HdrHistogram interval log to FILE")
	addWatchFlags(fs, &o.watch)
	o.outs = outputs.New()
	o.outs.Add(fs)
	addDashboardFlags(fs, &o.dash)
}

const runSynopsis = "vesload [run] [-url URL] [-rps N] [-duration D] [flags]"

// usagef is bad input (usage.Errorf): exit 2 with its one line.
func usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

func runRun(args []string, stdout, stderr io.Writer) int {
	if hvProfile(args) {
		// An hv-ves profile is a run of HV-VES producers: the same
		// arguments go to `vesload hv`, which takes -profile too.
		return runHV(args, stdout, stderr)
	}
	var o runOptions
	fs := runFlags(&o)
	if code, done := parseCommand(fs, args, runSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vesload: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	code, err := execute(&o, fs.Changed, stdout, stderr)
	if err != nil {
		return fail(stderr, "vesload", err)
	}
	return code
}

// execute runs the test described by o and returns the exit code.
func execute(o *runOptions, changed func(string) bool, stdout, stderr io.Writer) (int, error) {
	if o.dry.on {
		// The run ID a run would take, checked as a run checks it: a dry
		// run shows what the run would send, or why it would not start.
		if err := ves.CheckRunID(o.shard.runID); o.shard.runID != "" && err != nil {
			return 0, usagef("--run-id: %v", err)
		}
		return dryRun(o, changed, o.shard.runID, testserver.DefaultSchemaDir(), stdout)
	}
	early := catchEarlyHangUp()
	defer early.stop()
	plan, so, emu, err := setUp(o, changed, stderr)
	if emu != nil {
		defer emu.Close()
	}
	if err != nil {
		return 0, err
	}
	return runSession(context.Background(), "vesload", plan, so, stdout, early)
}

// runSession runs a set-up plan through its session to the exit code, as
// every command that runs the engine does (`run`, `hv`): the shards agree
// on their start, the run goes, and it finishes. Every SIGINT and SIGTERM
// from the agreement on, and ctx ending (tests), is an Interrupt (a
// SIGHUP or SIGQUIT: catchSignals, and a SIGHUP during the set-up:
// early); one
// that stops the run before anything was sent still exits 130, with the
// line that says so after name.
func runSession(ctx context.Context, name string, plan *scenario.Plan, so session.Options, stdout io.Writer, early *earlyHangUp) (int, error) {
	s, err := session.Start(plan, so)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	defer context.AfterFunc(ctx, s.Interrupt)()
	defer catchSignals(s, early).release(so.Stderr)
	err = s.AgreeStart()
	var res *result.Result
	if err == nil {
		res, err = s.Run()
	}
	if err != nil {
		if s.Interrupted() {
			fmt.Fprintf(so.Stderr, "%s: interrupted before the run started: nothing was sent\n", name)
			return exitInterrupted, nil
		}
		return 0, err
	}
	return s.Finish(res, stdout)
}

// setUp checks the flags, resolves the scenario, starts the emulator when
// there is no target, compiles the plan and turns the flags into the
// session's options. The emulator, once started, is returned even with an
// error, for the caller to close.
func setUp(o *runOptions, changed func(string) bool, stderr io.Writer) (_ *scenario.Plan, _ session.Options, emu *builtin.Emulator, err error) {
	var so session.Options
	if err := checkNumbers(o); err != nil {
		return nil, so, nil, err
	}
	if err := o.checkObservers(); err != nil {
		return nil, so, nil, err
	}
	rv, err := o.shard.resolve(time.Now(), os.Getenv)
	if err != nil {
		return nil, so, nil, err
	}
	sc, err := resolveScenario(o, changed)
	if err != nil {
		return nil, so, nil, err
	}
	digest, err := sc.Digest()
	if err != nil {
		return nil, so, nil, err
	}
	if so, err = o.sessionOptions(sc.Thresholds, stderr); err != nil {
		return nil, so, nil, err
	}
	if so.Baseline, err = o.baseline.load(); err != nil {
		return nil, so, nil, err
	}
	emulated := sc.Target.URL == ""
	if emulated {
		if emu = o.emulator; emu == nil {
			if emu, err = builtin.Start(stderr); err != nil {
				return nil, so, nil, err
			}
		}
		sc.Target.URL = emu.URL() + "/eventListener/v7"
	}
	plan, err := scenario.Compile(sc, scenario.Options{Version: version, NoPreflight: o.noPreflight, RunID: rv.RunID})
	if err != nil {
		return nil, so, emu, usage.Wrap(err)
	}
	plan.RunConfig.Digest = digest
	for _, w := range plan.Warnings {
		so.Notes = append(so.Notes, w)
		fmt.Fprintln(stderr, "vesload: warning: "+w)
	}
	if err := announceConsumer(rv, &plan.RunConfig, func() (delivery.Agreed, error) { return restAgreed(plan, sc) }); err != nil {
		return nil, so, emu, err
	}
	if err := applyShard(plan, rv); err != nil {
		return nil, so, emu, err
	}
	if !o.quiet {
		rv.Announce(stderr, time.Now())
	}
	so.Rendezvous = rv
	if emulated {
		plan.RunConfig.Emulator, plan.RunConfig.EmulatorSeed = true, emu.Seed()
		fmt.Fprintf(stderr, "vesload: no --url given: sending to the built-in VES collector emulator at %s\nvesload: %s\n", plan.URL, emu.Describe())
	}
	if pool, note := fdlimit.FitPool(plan.Config.Pool, emulated); note != "" {
		plan.Config.Pool, plan.RunConfig.Pool = pool, pool
		so.Notes = append(so.Notes, note)
		fmt.Fprintln(stderr, "vesload: "+note)
	}
	if emulated {
		sampleEmulator(&so.Target, emu)
		so.Emulator = emu
	}
	if so.Delivery, err = o.consume.follow(plan, sc, emu); err != nil {
		return nil, so, emu, err
	}
	so.Total, so.Transport = sc.Load.TotalDuration(), plan.Transport
	so.Target.HTTP.TLS = plan.REST.TLS // remote endpoints use the target's TLS settings
	return plan, so, emu, nil
}

// checkObservers checks the flags of the outputs and observers before
// anything starts: an unwritable path or a bad option is exit 1 or 2 at
// once, not after the run.
func (o *runOptions) checkObservers() error {
	outs := append(o.files.Paths(), files.Path{Option: "--jtl", Path: o.jtl}, files.Path{Option: "--hdr-log", Path: o.hdrLog})
	if err := checkOutputPaths(outs); err != nil {
		return err
	}
	var ins []string
	for _, in := range []string{o.baseline.file, o.profile, o.bodyFile, o.dataFile, o.passFile, o.cacert, o.cert, o.key, o.certPass} {
		if in != "" {
			ins = append(ins, in)
		}
	}
	if err := files.CheckInputs(ins, outs); err != nil {
		return usage.Wrap(err)
	}
	if err := checkResultDir(o.files.Dir); err != nil {
		return err
	}
	if err := o.consume.check(); err != nil {
		return err
	}
	if o.dash.addr != "" && o.dash.linger < 0 {
		return usagef("--dashboard-linger %v: want 0 or a positive duration", o.dash.linger)
	}
	if err := o.outs.Check(); err != nil {
		return usage.Wrap(err)
	}
	return nil
}

// sessionOptions turns the flags every run of the engine shares (`run`,
// `hv`) into the session's options, with thresholds, the run's gates
// (a profile's too); the command adds what its plan decides.
func (o *runOptions) sessionOptions(thresholds []string, stderr io.Writer) (session.Options, error) {
	so := session.Options{Stderr: stderr, Version: version, Quiet: o.quiet, Verbose: o.verbose,
		AbortOn: o.abortOn, AllowErrors: o.allowErrors, StartRule: !o.keepGoing, Files: o.files, Checkpoint: o.checkpoint,
		JTL: observe.Stream{Option: "--jtl", Path: o.jtl}, HdrLog: observe.Stream{Option: "--hdr-log", Path: o.hdrLog},
		MetricsAddr: o.watch.metricsAddr, MetricsLinger: o.watch.metricsLinger, Outputs: o.outs.Enabled(),
		DashboardAddr: o.dash.addr, DashboardLinger: o.dash.linger}
	var err error
	if so.Gates, err = parseThresholds(thresholds); err != nil {
		return so, err
	}
	if so.AbortGates, err = observe.ParseAbortGates(o.abortOn); err != nil {
		return so, usage.Wrap(err)
	}
	so.Target, err = o.watch.target()
	return so, err
}

// isUsage reports whether err is bad usage (exit 2): the command line's
// own, an option the session could not use, or a delivery follower's
// option (--consume and the Kafka flags, as the session and the consume
// command meet them). It is the one rule of exit 2 for errors.
func isUsage(err error) bool {
	return usage.Is(err)
}

// parseThresholds parses the --threshold gates (a profile's too).
func parseThresholds(exprs []string) ([]threshold.Threshold, error) {
	gates, err := threshold.ParseAll(exprs)
	if err != nil {
		return nil, usagef("--threshold: %v", err)
	}
	return gates, nil
}
