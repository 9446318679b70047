package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/fdlimit"
	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/dashboard"
	"github.com/vesload/vesload/loadgen/observe"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
	"github.com/vesload/vesload/report/verdict"
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

	event     string
	eventSize int
	batch     int
	bodyFile  string
	rawBody   bool
	dataFile  string
	dataPer   string
	vars      []string

	reportFiles
	quiet      bool
	verbose    bool
	checkpoint time.Duration
	thresholds []string
	abortOn    []string
	// expectStatus and allowErrors say what counts as success, and
	// whether a run in which nothing succeeded may still pass.
	expectStatus []string
	allowErrors  bool
	jtl          string
	hdrLog       string

	watch    watchOptions
	consume  consumeOptions
	influx   influxOptions
	shard    shardOptions
	dash     dashboardOptions
	baseline baselineOptions
	dry      dryRunOptions
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
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "start without first connecting to the target once")
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
	fs.BoolVar(&o.allowErrors, "allow-errors", false, "let a run in which no request succeeded pass (without it that run fails, exit 3)")
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
// and HdrHistogram log, the target's sampling and the live metrics, InfluxDB
// and the live page.
func addObserverFlags(fs *pflag.FlagSet, o *runOptions) {
	o.reportFiles.addFlags(fs)
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress on stderr")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "log the first failing request of each error class to stderr (HTTP: request and response, credentials hidden, bodies cut to 2 KiB)")
	fs.DurationVar(&o.checkpoint, "checkpoint", time.Minute, "with -o FILE, rewrite FILE with the result so far this often (0: only at the end)")
	fs.StringArrayVar(&o.abortOn, "abort-on-fail", nil, "stop the run early (exit 3) when this gate fails over the last 10 s, e.g. 'error_rate<5%' (repeatable)")
	fs.StringVar(&o.jtl, "jtl", "", "write every request as a JMeter JTL (CSV) row to FILE")
	fs.StringVar(&o.hdrLog, "hdr-log", "", "write per-second latency histograms as an HdrHistogram interval log to FILE")
	addWatchFlags(fs, &o.watch)
	addInfluxFlags(fs, &o.influx)
	addDashboardFlags(fs, &o.dash)
}

const runSynopsis = "vesload [run] [-url URL] [-rps N] [-duration D] [flags]"

// usageError is bad input: exit 2 with its one line.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

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
		fmt.Fprintf(stderr, "vesload: %v\n", err)
		var u usageError
		if errors.As(err, &u) {
			return exitUsage
		}
		return exitRun
	}
	return code
}

// execute runs the test described by o and returns the exit code.
func execute(o *runOptions, changed func(string) bool, stdout, stderr io.Writer) (int, error) {
	if o.dry.on {
		return dryRun(o, changed, "", defaultSchemaDir(), stdout)
	}
	set, err := setUp(o, changed, stderr)
	if err != nil {
		return 0, err
	}
	defer set.tearDown()
	if err := set.agreeStart(stderr); err != nil {
		return 0, err
	}
	res, err := set.run()
	if err != nil {
		return 0, err
	}
	return set.finish(res, stdout, stderr)
}

// runSetup is a run ready to start: its plan, its gates and everything
// that watches it. tearDown releases what setUp started, in reverse order.
type runSetup struct {
	o        *runOptions
	plan     *scenario.Plan
	gates    []threshold.Threshold
	guard    *observe.AbortGuard // nil without --abort-on-fail
	prog     *progress
	outs     *observe.Streams
	ckpt     *observe.Checkpointer // nil without checkpoints
	ctx      context.Context
	stop     context.CancelFunc
	closers  []func()
	fillMeta func(*result.Result)
	// shard and coord are the run's shard plan and, on shard 0 of a run
	// that agrees on its start (--rendezvous), the coordinator.
	shard    *shardPlan
	coord    *rendezvous.Coordinator
	notes    []string // warnings about the set-up, for the result
	follow   *follow
	influx   *influxHook
	dash     *dashboard.Server // nil without --dashboard
	baseline *compare.Baseline // nil without --baseline

	// labels, when set, names each request in per-request outputs (the
	// JTL's label) instead of the plan's one Label: HV-VES names the
	// producer. complete, when set, adds what the command knows to the
	// result before it is judged (HV-VES: the receiver's counts).
	labels   func(seq int64) string
	complete func(*result.Result) error

	// abortGates are the --abort-on-fail gates, judged on the whole run
	// at the end as well.
	abortGates []threshold.Threshold
	// signalled is set by the first SIGINT/SIGTERM: only a signal marks
	// a run interrupted, not a stop by --abort-on-fail.
	signalled atomic.Bool
	// phase says what a signal stops: the run (phaseRunning), nothing
	// while the run settles (the delivery follower's grace wait answers
	// Ctrl-C itself), or the outputs being written (phaseWriting: a write
	// stuck on a pipe gives up and falls back, and the exit code is 130).
	phase       atomic.Int32
	outputs     context.Context
	stopOutputs context.CancelCauseFunc
}

// The phases of a run, as a signal sees them (runSetup.phase).
const (
	phaseRunning int32 = iota
	phaseSettling
	phaseWriting
)

func (s *runSetup) tearDown() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// setUp checks the flags, resolves the scenario, starts the emulator when
// there is no target, and attaches progress, samplers, live metrics,
// streams, checkpoints and abort gates to the engine's hooks.
func setUp(o *runOptions, changed func(string) bool, stderr io.Writer) (_ *runSetup, err error) {
	s := &runSetup{o: o}
	defer func() {
		if err != nil {
			s.tearDown()
		}
	}()
	if err := checkNumbers(o); err != nil {
		return nil, err
	}
	if err := o.checkObservers(); err != nil {
		return nil, err
	}
	sp, err := o.shard.resolve(time.Now(), os.Getenv)
	if err != nil {
		return nil, err
	}
	sc, err := resolveScenario(o, changed)
	if err != nil {
		return nil, err
	}
	digest, err := sc.Digest()
	if err != nil {
		return nil, err
	}
	if s.gates, err = parseThresholds(sc.Thresholds); err != nil {
		return nil, err
	}
	if s.abortGates, err = observe.ParseAbortGates(o.abortOn); err != nil {
		return nil, usageError{err}
	}
	if s.baseline, err = o.baseline.load(); err != nil {
		return nil, err
	}
	emulated := sc.Target.URL == ""
	var emu *builtin.Emulator
	if emulated {
		emu, err = builtin.Start(stderr)
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, func() { emu.Close() })
		sc.Target.URL = emu.URL() + "/eventListener/v7"
	}
	if s.plan, err = scenario.Compile(sc, scenario.Options{Version: version, NoPreflight: o.noPreflight, RunID: sp.runID}); err != nil {
		return nil, usageError{err}
	}
	s.plan.RunConfig.Digest = digest
	for _, w := range s.plan.Warnings {
		s.notes = append(s.notes, w)
		fmt.Fprintln(stderr, "vesload: warning: "+w)
	}
	if err := sp.apply(s.plan); err != nil {
		return nil, err
	}
	sp.announce(stderr, o.quiet, time.Now())
	if err := s.startRendezvous(sp); err != nil {
		return nil, err
	}
	if emulated {
		s.plan.RunConfig.Emulator, s.plan.RunConfig.EmulatorSeed = true, emu.Seed()
		fmt.Fprintf(stderr, "vesload: no --url given: sending to the built-in VES collector emulator at %s\nvesload: %s\n", s.plan.URL, emu.Describe())
	}
	if pool, note := fdlimit.FitPool(s.plan.Config.Pool, emulated); note != "" {
		s.plan.Config.Pool, s.plan.RunConfig.Pool = pool, pool
		s.notes = append(s.notes, note)
		fmt.Fprintln(stderr, "vesload: "+note)
	}
	if err := s.startFollow(sc, emu); err != nil {
		return nil, err
	}
	s.prog = newProgress(stderr, o.quiet, sc.Load.TotalDuration())
	if err := s.attach(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkObservers checks the flags of the outputs and observers before
// anything starts: an unwritable path or a bad option is exit 1 or 2 at
// once, not after the run.
func (o *runOptions) checkObservers() error {
	if err := checkOutputPaths(append(o.reportFiles.paths(), files.Path{Option: "--jtl", Path: o.jtl}, files.Path{Option: "--hdr-log", Path: o.hdrLog})); err != nil {
		return err
	}
	if err := o.consume.check(); err != nil {
		return err
	}
	return o.influx.check()
}

// attach registers the observers of the run, in the order they see each
// event, and the samplers.
func (s *runSetup) attach() error {
	o, cfg := s.o, &s.plan.Config
	cfg.Observers = append(cfg.Observers, s.prog)
	if o.verbose {
		cfg.LogFailure = s.prog.note
	}
	var err error
	if cfg.Target, err = targetSampler(&o.watch, cfg.TLS); err != nil {
		return err
	}
	if self, err := sample.NewSelf(); err == nil {
		cfg.Generator = self
	}
	live, err := startMetrics(&o.watch)
	if err != nil {
		return err
	}
	if live != nil {
		cfg.Observers = append(cfg.Observers, live.observer())
		s.closers = append(s.closers, func() { live.close(s.prog.note) })
		s.prog.note(fmt.Sprintf("serving metrics at http://%s/metrics", live.addr))
	}
	if s.outs, err = observe.OpenStreams(observe.Stream{Option: "--jtl", Path: o.jtl}, observe.Stream{Option: "--hdr-log", Path: o.hdrLog},
		s.plan.URL, time.Now()); err != nil {
		return err
	}
	cfg.Observers = append(cfg.Observers, s.outs.Observers(s.plan.Label, s.labels)...)
	if s.influx, err = startInflux(&o.influx, s.plan.Label, s.influxShard(), s.prog.note); err != nil {
		return err
	}
	if s.influx != nil {
		cfg.Observers = append(cfg.Observers, s.influx)
		s.closers = append(s.closers, s.influx.close)
	}
	s.fillMeta = func(res *result.Result) {
		res.Tool = result.Tool{Name: "vesload", Version: version}
		res.Config = s.plan.RunConfig
		res.Warnings = append(res.Warnings, s.notes...)
		res.Config.AllowErrors = s.o.allowErrors
		res.Config.AbortOnFail = s.o.abortOn
	}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.closers = append(s.closers, s.stop)
	if len(s.abortGates) > 0 {
		s.guard = observe.NewAbortGuard(s.abortGates, observe.AbortWindow, s.stop, s.prog.note)
		cfg.Observers = append(cfg.Observers, s.guard)
	}
	if o.output != "" && o.output != "-" && o.checkpoint > 0 {
		s.ckpt = observe.NewCheckpointer(o.output, s.fillMeta)
		cfg.Observers = append(cfg.Observers, s.ckpt)
		cfg.CheckpointEvery = o.checkpoint
	}
	return s.startDashboard()
}

// run drives the engine: a first signal stops the schedule and drains, a
// second aborts at once.
func (s *runSetup) run() (*result.Result, error) {
	var eng *loadgen.Engine
	var err error
	if s.plan.Config.Transport == nil { // a REST run; other protocols come with their transport
		s.plan.Config.Transport, err = restTransport(&s.plan.Config)
	}
	if err == nil {
		eng, err = loadgen.New(s.plan.Config)
	}
	if err != nil {
		s.outs.Close()
		return nil, usageError{err}
	}
	// Signals are caught until the command returns (tearDown), so that
	// one that comes while the outputs are written still ends with the
	// summary, the result and exit 130, not the default action's 143.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	s.outputs, s.stopOutputs = context.WithCancelCause(context.Background())
	s.closers = append(s.closers, func() { signal.Stop(sigs); s.stopOutputs(nil) })
	go func() {
		n := 0
		for range sigs {
			n++
			switch s.phase.Load() {
			case phaseSettling:
				continue
			case phaseWriting:
				s.signalled.Store(true)
				s.stopOutputs(errors.New("interrupted"))
				continue
			}
			if n == 1 {
				s.signalled.Store(true)
				s.prog.note("stopping: draining requests in flight (press Ctrl-C again to abort)")
				s.stop()
			} else {
				eng.Abort()
			}
		}
	}()
	res, err := eng.Run(s.ctx)
	s.phase.Store(phaseSettling)
	s.prog.done()
	// A stream that failed cost only itself: the result says so.
	if warnings := s.outs.Close(); res != nil {
		res.Warnings = append(res.Warnings, warnings...)
		for _, w := range warnings {
			s.prog.note(w)
		}
	}
	return res, err
}

// finish completes the result, writes every output, prints the summary
// and decides the exit code.
func (s *runSetup) finish(res *result.Result, stdout, stderr io.Writer) (int, error) {
	if err := s.follow.finish(res, s.prog.note); err != nil {
		return 0, err
	}
	if s.complete != nil {
		if err := s.complete(res); err != nil {
			return 0, err
		}
	}
	if s.ckpt != nil {
		if cerr := s.ckpt.Err(); cerr != nil {
			s.prog.note(fmt.Sprintf("a checkpoint could not be written: %v", cerr))
		}
	}
	s.fillMeta(res)
	s.influx.finish(res)
	verdict.Judge(res, verdict.Options{Gates: s.gates, AbortGates: s.abortGates, AllowErrors: s.o.allowErrors})
	verdict.WarnUngatedErrors(res, len(s.gates)+len(s.abortGates))
	s.guard.Complete(res, s.signalled.Load())
	s.dash.Finish(res) // the live page shows the final result
	// The summary is printed even when an output could not be written:
	// the run happened and its figures are not lost.
	s.phase.Store(phaseWriting)
	outErr := s.o.reportFiles.write(s.outputs, res, stdout, stderr)
	summaryOut := stdout
	if s.o.output == "-" {
		summaryOut = stderr
	}
	if err := report.Text(summaryOut, res, report.TextOptions{Color: isTerminal(summaryOut)}); err != nil {
		return 0, fmt.Errorf("print summary: %w", err)
	}
	baselinePassed := true
	if s.baseline != nil {
		var err error
		if baselinePassed, err = s.baseline.Judge(res, summaryOut); err != nil {
			return 0, err
		}
	}
	if outErr != nil {
		if s.signalled.Load() { // the fallbacks are named; the signal decides the code
			fmt.Fprintf(stderr, "vesload: %v\n", outErr)
			return exitInterrupted, nil
		}
		return 0, outErr
	}
	code := exitCode(res, s.prog.note)
	if code == exitOK && !baselinePassed {
		code = exitThreshold
	}
	if code == exitOK && s.signalled.Load() {
		code = exitInterrupted // a signal while the outputs were written
	}
	return code, nil
}

// parseThresholds parses the --threshold gates (a profile's too).
func parseThresholds(exprs []string) ([]threshold.Threshold, error) {
	gates, err := threshold.ParseAll(exprs)
	if err != nil {
		return nil, usagef("--threshold: %v", err)
	}
	return gates, nil
}
