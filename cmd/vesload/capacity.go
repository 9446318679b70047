package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/capacity"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport/hv"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/summary"
	"github.com/vesload/vesload/report/threshold"
	"github.com/vesload/vesload/session"
	"github.com/vesload/vesload/testserver/builtin"
)

// capacityOptions holds the flags of `vesload capacity`: the search's own
// and the run flags each step takes as `vesload run` does.
type capacityOptions struct {
	run runOptions
	// hv, with hvMode, are the HV-VES steps' flags (capacity hv): the
	// rate is then messages a second over all producers.
	hv     hvOptions
	hvMode bool
	// vary is what an HV-VES search changes: varyRate or varyProducers.
	vary         string
	slos         []string
	start, max   float64
	step, warmup time.Duration
	precision    string
	budget       time.Duration
	out          string
	markdown     string
	html         string
	stepDir      string
	// emuPool and emuPublish bound the built-in emulator's service
	// capacity (serve --backend-pool, --publish-time): hidden, for a
	// target of known capacity.
	emuPool    int
	emuPublish time.Duration
	// emuProcess bounds the built-in HV-VES emulator's messages a second
	// (serve --hv-process-rate): hidden, for capacity hv.
	emuProcess float64
}

// defaultSLOs suit a VES collector's REST listener: answers within half a
// second, at most one request in a thousand failed.
var defaultSLOs = []string{"p99<500ms", "error_rate<0.1%"}

// capacityRunFlags are the flags of `vesload run` a step takes: the
// target, the pool, the requests, authentication and TLS, the target's
// samplers. The rate and duration are the search's.
var capacityRunFlags = []string{"url", "profile", "pool", "pool-wait", "timeout", "keepalive", "header", "user",
	"password-file", "cacert", "cert", "key", "cert-pass-file", "insecure", "no-preflight", "event", "event-size",
	"batch", "body-file", "raw-body", "set", "expect-status", "target-pid", "target-process", "target-metrics",
	"target-metrics-user", "target-metrics-password-file", "prom-url", "prom-query", "label"}

// capacityFlags are the flags of `vesload capacity` (REST): the
// search's own, then the run flags a step takes.
func capacityFlags(o *capacityOptions) *pflag.FlagSet {
	fs := newFlagSet("capacity")
	searchFlags(fs, o, "requests", "'"+strings.Join(defaultSLOs, "' and '")+"'", 50, 20000)
	fs.IntVar(&o.emuPool, "emulator-backend-pool", 0, "the built-in emulator's --backend-pool")
	fs.DurationVar(&o.emuPublish, "emulator-publish-time", 0, "the built-in emulator's --publish-time")
	_ = fs.MarkHidden("emulator-backend-pool") // declared above: cannot fail
	_ = fs.MarkHidden("emulator-publish-time")
	run := runFlags(&o.run)
	for _, name := range capacityRunFlags {
		fs.AddFlag(run.Lookup(name))
	}
	fs.AddFlag(run.Lookup("quiet")) // no line per step
	return fs
}

// searchFlags declares the search's own flags, the same for REST and
// HV-VES but for the unit of the rate, the default SLOs and the range.
func searchFlags(fs *pflag.FlagSet, o *capacityOptions, unit, slos string, start, maxRate float64) {
	fs.StringArrayVar(&o.slos, "slo", nil, "gate every step must hold, in the --threshold grammar (repeatable; default "+slos+")")
	fs.Float64Var(&o.start, "start", start, "first step's rate, "+unit+" per second; the search doubles it until a step fails")
	fs.Float64Var(&o.max, "max", maxRate, "highest rate tried, "+unit+" per second")
	fs.DurationVar(&o.step, "step-duration", 10*time.Second, "measured length of each step, whole seconds, after its warm-up")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "length of each step's warm-up, whole seconds, left out of its judgement")
	fs.StringVar(&o.precision, "precision", "5%", "stop bisecting when the lowest fail is within this much of the highest pass (0.1% to 50%)")
	fs.DurationVar(&o.budget, "budget", 10*time.Minute, "time the whole search may take; it says what it could not decide within it")
	fs.StringVarP(&o.out, "output", "o", "", "write the search's result (JSON, schema vesload/capacity/v1) to FILE ('-': stdout)")
	fs.StringVar(&o.markdown, "markdown", "", "write the search as Markdown to `FILE`: the result line and a table of every step, for a wiki")
	fs.StringVar(&o.html, "html", "", "write the search as an HTML page to `FILE`: the curve (latency, errors, achieved rate, target CPU against the rate) with the highest pass, the lowest fail and the knee marked")
	fs.StringVar(&o.stepDir, "step-results", "", "write each step's whole run result, as run -o writes it (report, compare and merge read it), into the folder `DIR`")
}

const capacitySynopsis = "vesload capacity [hv] [--url URL] [--slo GATE]... [--start RPS] [--max RPS] [--step-duration D] [--warmup D] [--precision P%] [--budget D] [-o FILE] [--markdown FILE] [--html FILE]"

func runCapacity(args []string, stdout, stderr io.Writer) int {
	var o capacityOptions
	fs, synopsis, name := capacityFlags(&o), capacitySynopsis, "vesload capacity"
	if len(args) > 0 && args[0] == "hv" {
		fs, synopsis, name, args, o.hvMode = capacityHVFlags(&o), capacityHVSynopsis, "vesload capacity hv", args[1:], true
	}
	if code, done := parseCommand(fs, args, synopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, name, usagef("unexpected argument %q", fs.Arg(0)))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := executeCapacity(ctx, &o, fs.Changed, stdout, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	return code
}

// capacitySearch is one search's command-line side: the options checked,
// the emulator every step sends to, how a step is set up for the
// protocol, and the first step's set-up lines.
type capacitySearch struct {
	o       *capacityOptions
	opts    capacity.Options
	changed func(string) bool
	emu     *builtin.Emulator
	// setUp builds one step at rate, printing its set-up lines on out;
	// release is called once the step is over, even after an error.
	setUp  func(rate float64, out io.Writer) (plan *scenario.Plan, so session.Options, release func(), err error)
	stderr io.Writer
	steps  int
	notes  []string
	url    string
	// labels are --label's and the profile's, kept in the document.
	labels map[string]string
	// hvShape is an HV-VES search's producers as its first step has them
	// (the profile's, flags over it), for the document.
	hvShape hv.Config
}

// executeCapacity checks every flag before anything starts, starts the
// built-in emulator once when no target is named, runs the search and
// writes its result: exit 0 when a capacity was found and confirmed, 3
// when the search could not decide it, 130 when a signal stopped it.
func executeCapacity(ctx context.Context, o *capacityOptions, changed func(string) bool, stdout, stderr io.Writer) (int, error) {
	c := &capacitySearch{o: o, stderr: stderr, changed: changed}
	if err := c.check(); err != nil {
		return 0, err
	}
	prepare := c.prepareREST
	if o.hvMode {
		prepare = c.prepareHV
	}
	if err := prepare(); err != nil {
		return 0, err
	}
	if c.emu != nil {
		defer c.emu.Close()
	}
	started := time.Now()
	if !o.run.quiet {
		c.opts.Progress = func(s result.CapacityStep) {
			fmt.Fprintln(stderr, "vesload capacity: "+summary.CapacityStepLine(s))
		}
	}
	found, err := capacity.Search(ctx, c.step, c.opts)
	interrupted := err != nil && ctx.Err() != nil // a signal that came after the last step changes nothing
	if err != nil && !interrupted {
		return 0, err
	}
	if interrupted {
		found.Undecided = "interrupted by a signal before the search ended"
	}
	doc := c.document(found, started)
	return c.finish(doc, interrupted, stdout)
}

// prepareREST resolves the REST target once (its URL, labels) and starts
// the built-in emulator when no --url is given; each step is a `vesload
// run` at the step's rate.
func (c *capacitySearch) prepareREST() error {
	changed := c.changed
	c.changed = func(name string) bool { return name == "rps" || name == "duration" || changed(name) }
	sc, err := resolveScenario(&c.o.run, c.changed)
	if err != nil {
		return err
	}
	c.labels = sc.Labels // the profile's, --label's over them
	c.url = redact.URL(sc.Target.URL)
	if sc.Target.URL == "" {
		if c.emu, err = builtin.Start(c.stderr, c.emulatorArgs()...); err != nil {
			return err
		}
		c.url = c.emu.URL() + "/eventListener/v7"
	} else if c.o.emuPool > 0 || c.o.emuPublish > 0 {
		return usagef("--emulator-backend-pool and --emulator-publish-time bound the built-in emulator: give no --url")
	}
	c.setUp = func(rate float64, out io.Writer) (*scenario.Plan, session.Options, func(), error) {
		o := c.o.run
		o.rps, o.duration, o.quiet, o.emulator = rate, c.o.warmup+c.o.step, true, c.emu
		plan, so, _, err := setUp(&o, c.changed, out)
		so.Delivery = nil // no follower per step
		return plan, so, func() {}, err
	}
	return nil
}

// check refuses bad input, each error naming its flag, before anything
// starts.
func (c *capacitySearch) check() error {
	o := c.o
	if len(o.slos) == 0 {
		o.slos = defaultSLOs
		if o.hvMode {
			o.slos = c.defaultHVSLOs()
		}
	}
	gates, err := threshold.ParseAll(o.slos)
	if err != nil {
		return usagef("--slo: %v", err)
	}
	if err := capacity.CheckSLOs(gates, c.whole()); err != nil {
		return usagef("--slo: %v", err)
	}
	pct, err := parsePrecision(o.precision)
	if err != nil {
		return err
	}
	switch {
	case !(o.start > 0) || math.IsInf(o.start, 0):
		return usagef("--start %g: want a rate above 0", o.start)
	case !(o.max >= o.start) || math.IsInf(o.max, 0):
		return usagef("--max %g is below --start %g: want --max at least --start", o.max, o.start)
	case o.step < time.Second || o.step%time.Second != 0:
		return usagef("--step-duration %v: want whole seconds, at least 1s (steps are judged on the per-second timeline)", o.step)
	case o.warmup < 0 || o.warmup%time.Second != 0:
		return usagef("--warmup %v: want 0 or whole seconds (steps are judged on the per-second timeline)", o.warmup)
	case o.budget < o.step+o.warmup:
		return usagef("--budget %v is shorter than one step (--warmup %v + --step-duration %v)", o.budget, o.warmup, o.step)
	case o.emuPool < 0 || o.emuPublish < 0:
		return usagef("--emulator-backend-pool and --emulator-publish-time: want 0 or more")
	case !(o.emuProcess >= 0) || math.IsInf(o.emuProcess, 0):
		return usagef("--emulator-process-rate %g: want 0 or more messages a second", o.emuProcess)
	}
	if o.hvMode {
		err = c.checkHV()
	} else {
		err = c.checkREST()
	}
	if err != nil {
		return err
	}
	if err := files.CheckDir("--step-results", o.stepDir); err != nil {
		return usage.Wrap(err)
	}
	if err := checkOutputPaths([]files.Path{{Option: "-o", Path: o.out}, {Option: "--markdown", Path: o.markdown},
		{Option: "--html", Path: o.html}}); err != nil {
		return err
	}
	c.opts = capacity.Options{Start: o.start, Max: o.max, PrecisionPct: pct, Budget: o.budget, Step: o.warmup + o.step, SLOs: gates,
		Quantum: c.perProducer()}
	return usage.Wrap(c.opts.Check())
}

// checkREST checks the run flags a REST step takes, as run would at the
// first step's rate.
func (c *capacitySearch) checkREST() error {
	o := c.o
	o.run.rps, o.run.duration = o.start, o.warmup+o.step
	if err := checkNumbers(&o.run); err != nil {
		return err
	}
	return o.run.checkObservers()
}

// whole is what each step adds to its window from the whole step: for
// HV-VES its own section, the receiver's counts when observed and the
// delivery when followed.
func (c *capacitySearch) whole() capacity.Whole {
	if !c.o.hvMode {
		return capacity.Whole{}
	}
	h := &c.o.hv
	return capacity.Whole{HV: true, Receiver: h.addr == "" || h.run.watch.targetMetrics != "", Delivery: h.addr == "" || h.run.consume.url != ""}
}

// parsePrecision reads --precision: a percentage, its "%" optional.
func parsePrecision(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || !(v >= capacity.MinPrecisionPct && v <= capacity.MaxPrecisionPct) {
		return 0, usagef("--precision %q: want a percentage from %g%% to %g%%, such as 5%%", s,
			float64(capacity.MinPrecisionPct), float64(capacity.MaxPrecisionPct))
	}
	return v, nil
}

// emulatorArgs are the serve flags that bound the built-in emulator.
func (c *capacitySearch) emulatorArgs() []string {
	var args []string
	if c.o.emuPool > 0 {
		args = append(args, "--backend-pool", strconv.Itoa(c.o.emuPool))
	}
	if c.o.emuPublish > 0 {
		args = append(args, "--publish-time", c.o.emuPublish.String())
	}
	if c.o.emuProcess > 0 {
		args = append(args, "--hv-process-rate", strconv.FormatFloat(c.o.emuProcess, 'g', -1, 64))
	}
	return args
}

// step is the search's runner: one open-model run at rate through the
// same set-up and session as `vesload run` or `vesload hv`, judged on its
// seconds after the warm-up (capacity.Window), which stops it once it has
// clearly failed, and on what the whole step adds (capacity.Whole). Only
// the first step's set-up lines are printed: the others say the same.
func (c *capacitySearch) step(ctx context.Context, rate float64) (capacity.StepResult, error) {
	began := time.Now()
	setUpOut := io.Discard
	if c.steps == 0 {
		setUpOut = c.stderr
	}
	c.steps++
	plan, so, release, err := c.setUp(rate, setUpOut)
	if release != nil {
		defer release()
	}
	if err != nil {
		return capacity.StepResult{}, err
	}
	if c.steps == 1 {
		c.notes = so.Notes
	}
	so.Stderr, so.Checkpoint = io.Discard, 0 // the search prints its own line
	if c.o.stepDir != "" {
		so.Files = files.Set{Result: filepath.Join(c.o.stepDir, fmt.Sprintf("step-%02d-%s.json", c.steps, format.Num(rate)))}
	}
	var sess *session.Session
	planned := int64(math.Round(rate * c.o.step.Seconds()))
	win := capacity.NewWindow(int(c.o.warmup/time.Second), planned, c.opts.SLOs, func() { sess.Stop() })
	plan.Config.Observers = append(plan.Config.Observers, win)
	if sess, err = session.Start(plan, so); err != nil {
		return capacity.StepResult{}, err
	}
	defer sess.Close()
	defer context.AfterFunc(ctx, sess.Interrupt)()
	var res *result.Result
	if err = sess.AgreeStart(); err == nil {
		res, err = sess.Run()
	}
	if err != nil {
		return capacity.StepResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return capacity.StepResult{}, err // a signal cut the step short: no verdict
	}
	if res.TargetExited != "" {
		return capacity.StepResult{}, errors.New("the target's process exited: " + res.TargetExited)
	}
	// The whole result, its sections completed (the receiver's counts,
	// the delivery) and written to --step-results.
	if _, err := sess.Finish(res, io.Discard); err != nil {
		return capacity.StepResult{}, err
	}
	w, stopped, cpu := win.Result()
	if c.o.hvMode {
		w.HV, w.Delivery = res.HV, res.Delivery // counted once, at the step's end
	}
	return capacity.StepResult{Window: w, Took: time.Since(began), StoppedEarly: stopped, TargetCPUMaxPct: cpu, File: so.Files.Result,
		Generator: capacity.Health{Saturated: res.Generator.Saturated, CPUSaturated: engine.CPUSaturated(res.Generator), DispatchLagP99Ms: res.Generator.DispatchLagP99Ms,
			SchedP99Ms: win.SchedP99Ms(), Pool: plan.Config.Pool, PoolExhausted: res.Errors[result.ClassPoolExhausted]}}, nil
}

// document is the search's result document.
func (c *capacitySearch) document(found *result.Capacity, started time.Time) *result.CapacityDocument {
	o := c.o
	cfg := result.CapacityConfig{URL: c.url, Emulator: c.emu != nil, StartRPS: o.start, MaxRPS: o.max,
		StepS: o.step.Seconds(), WarmupS: o.warmup.Seconds(), PrecisionPct: c.opts.PrecisionPct, BudgetS: o.budget.Seconds(),
		SLOs: o.slos, Pool: o.run.pool, TimeoutS: o.run.timeout.Seconds(), Profile: o.run.profile}
	if o.hvMode {
		cfg.Protocol, cfg.Producers, cfg.SizeBytes = result.ProtocolHV, c.hvShape.Producers, c.hvShape.Size
		cfg.Pool, cfg.TimeoutS, cfg.Profile = 0, c.hvShape.RunConfig().TimeoutS, o.hv.profile
		if c.perProducer() > 0 {
			cfg.Vary, cfg.Producers, cfg.IntervalS = varyProducers, 0, o.hv.interval.Seconds()
		}
	}
	return &result.CapacityDocument{Schema: result.CapacitySchema, Tool: result.Tool{Name: "vesload", Version: version},
		Config: cfg, Started: started.UTC(), Ended: time.Now().UTC(), Capacity: *found, Labels: c.labels, Warnings: c.notes}
}

// finish writes the document (-o), its renderings (--markdown, --html)
// and the text summary, and returns the exit code. A file that cannot be
// written does not keep the others from being written.
func (c *capacitySearch) finish(doc *result.CapacityDocument, interrupted bool, stdout io.Writer) (int, error) {
	text := stdout
	if c.o.out == "-" {
		text = c.stderr
	}
	var errs []error
	if c.o.out != "" {
		render := func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(doc)
		}
		var err error
		if c.o.out == "-" {
			err = render(stdout)
		} else {
			err = resultfile.WriteFile(c.o.out, render)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("write -o %s: %w", c.o.out, err))
		}
	}
	for _, r := range []struct {
		option, path string
		render       func(io.Writer, *result.CapacityDocument) error
	}{
		{"--markdown", c.o.markdown, report.CapacityMarkdown},
		{"--html", c.o.html, html.Capacity},
	} {
		if r.path == "" {
			continue
		}
		if err := resultfile.WriteFile(r.path, func(w io.Writer) error { return r.render(w, doc) }); err != nil {
			errs = append(errs, fmt.Errorf("write %s %s: %w", r.option, r.path, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	if err := summary.Capacity(text, doc); err != nil {
		return 0, fmt.Errorf("print summary: %w", err)
	}
	switch {
	case interrupted:
		return exitInterrupted, nil
	case doc.Capacity.Undecided != "" || !doc.Capacity.Confirmed:
		return exitThreshold, nil
	}
	return exitOK, nil
}
