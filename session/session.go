// Package session is one run of the engine with everything that watches it
// and what it writes: the observers attached to the engine (the live line,
// samplers, live metrics, the JTL and HdrHistogram log, the table's outputs, abort
// gates, checkpoints, the live page, the delivery follower), the agreement
// of shards on their start, the run itself, and its finish: the result
// completed in one order, judged once (report/verdict, with the baseline
// gates among the gates), written with its fallbacks, summed up, and its
// exit code, which every output agrees with.
//
// It is the application layer between the command line, which turns flags
// into Options and owns the process's signals, and the packages that do
// the work: data flows config → engine → result → renderers, and the
// session wires them. A signal reaches it as Interrupt, which does what the
// run's phase says.
package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/loadgen/output/dashboard"
	"github.com/vesload/vesload/loadgen/output/metrics"
	"github.com/vesload/vesload/loadgen/output/observe"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
	"github.com/vesload/vesload/report/verdict"
)

// The phases of a run, as a signal sees them (Session.Interrupt).
const (
	// phaseRunning: a first signal stops the schedule and drains, a
	// second aborts.
	phaseRunning int32 = iota
	// phaseSettling: the run has ended and its result is being
	// completed; a signal ends the delivery follower's grace wait.
	phaseSettling
	// phaseWriting: the outputs are being written; a signal makes a
	// write stuck on a pipe give up and fall back, and the exit code
	// is 130.
	phaseWriting
)

// Session is one run of the engine, ready to start once Start returns.
// Close releases what Start started, in reverse order.
type Session struct {
	o    Options
	plan *scenario.Plan
	prog *progress
	// later prints the notes of the run's own goroutines (-v, the abort
	// guard) without holding them up.
	later *later

	outs *observe.Streams
	// streams is what the streams (the JTL, the HdrHistogram log) said
	// when Run closed them, for the result's writer (sections).
	streams streamReport
	ckpt    *observe.Checkpointer // nil without checkpoints
	guard   *observe.AbortGuard   // nil without abort gates
	start   *observe.StartGuard   // nil without the start-of-run rule
	follow  *delivery.Child       // nil when nothing is followed
	writes  []output.Output       // the table's outputs started, in order
	dash    *dashboard.Server     // nil without the live page
	coord   *rendezvous.Coordinator

	closers []func()

	// ctx ends the run: a first signal or an abort gate stops the
	// schedule through it.
	ctx  context.Context
	stop context.CancelFunc
	// settle ends the delivery follower's grace wait.
	settle     context.Context
	stopSettle context.CancelFunc
	// outputs ends a write stuck on a pipe.
	outputs     context.Context
	stopOutputs context.CancelCauseFunc

	engine atomic.Pointer[engine.Engine]
	phase  atomic.Int32
	// interrupts counts the signals of the running phase.
	interrupts atomic.Int32
	// signalled is set by a signal that stopped the run or the outputs:
	// only a signal marks a run interrupted, not a stop by
	// --abort-on-fail.
	signalled atomic.Bool
	// hungUp is set by HangUp: the terminal went away and the run goes
	// on without it.
	hungUp atomic.Pointer[hangUp]
	// emulatorExit is set when the built-in emulator exited while the
	// run needed it (Options.Emulator).
	emulatorExit atomic.Pointer[exit]
}

// exit is when a process ended and how.
type exit struct {
	at     time.Time
	reason string
}

// hangUp is when the terminal hung up and how many of the lines meant for
// it were dropped since.
type hangUp struct {
	at      time.Time
	dropped func() int64
}

// Start sets the session of plan up: it starts shard 0's coordinator of a
// run that agrees on its start, the delivery follower, and attaches the
// live line, samplers, live metrics, streams, the table's outputs, abort gates,
// checkpoints and the live page to the engine's hooks. On an error,
// whatever it started is released.
func Start(plan *scenario.Plan, o Options) (_ *Session, err error) {
	s := &Session{o: o, plan: plan, prog: newProgress(o.Stderr, o.Quiet, o.Total)}
	s.prog.messages = o.Messages
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.settle, s.stopSettle = context.WithCancel(context.Background())
	s.outputs, s.stopOutputs = context.WithCancelCause(context.Background())
	s.closers = append(s.closers, s.stop, s.stopSettle, func() { s.stopOutputs(nil) })
	defer func() {
		if err != nil {
			if s.outs != nil {
				s.outs.Close() // Run, which closes them, never comes
			}
			s.Close()
		}
	}()
	if err := s.startRendezvous(); err != nil {
		return nil, err
	}
	if err := s.startFollow(); err != nil {
		return nil, err
	}
	if err := s.attach(); err != nil {
		return nil, err
	}
	s.watchEmulator()
	return s, nil
}

// watchEmulator stops the run the moment the built-in emulator's process
// ends, until Close: the run has no target left, and the delivery
// follower no broker, so neither the schedule nor the follower's grace is
// waited out.
func (s *Session) watchEmulator() {
	m := s.o.Emulator
	if m == nil {
		return
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-m.Exited():
		case <-quit:
			return
		}
		if s.phase.Load() == phaseWriting {
			return // the result is complete: the emulator's end changes nothing
		}
		x := &exit{at: time.Now(), reason: m.ExitReason()}
		s.emulatorExit.Store(x)
		s.stop()
		s.stopSettle()
		s.prog.note("stopping: the built-in emulator exited (" + x.reason + "): no target is left to send to")
	}()
	s.closers = append(s.closers, func() { close(quit); <-done })
}

// emulatorExited says in the result's words when and how the built-in
// emulator exited, or "" when it did not stop the run.
func (s *Session) emulatorExited(res *result.Result) string {
	x := s.emulatorExit.Load()
	if x == nil {
		return ""
	}
	when := "before the run started"
	if at := x.at.Sub(res.Started); at >= 0 && !res.Started.IsZero() {
		when = fmt.Sprintf("%.1fs into the run", at.Seconds())
	}
	return fmt.Sprintf("the built-in emulator exited %s (%s): the run stopped there, with no target left", when, x.reason)
}

// Close releases what Start started, in reverse order; the live page and
// the live metrics linger first when asked to.
func (s *Session) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// Interrupted reports whether a signal stopped the run or its outputs.
func (s *Session) Interrupted() bool { return s.signalled.Load() }

// startRendezvous starts, on shard 0 of a run started by --rendezvous,
// the coordinator as soon as the run is set up, so that the other shards
// can reach it while this one gets ready.
func (s *Session) startRendezvous() error {
	if s.o.Rendezvous == nil {
		return nil
	}
	c, stop, err := s.o.Rendezvous.Coordinate(clock.System{})
	if err != nil {
		return err
	}
	s.coord = c
	s.closers = append(s.closers, stop)
	return nil
}

// AgreeStart waits, with --rendezvous, for every shard to be ready and
// sets the start gate to the instant they agreed on.
func (s *Session) AgreeStart() error {
	rv := s.o.Rendezvous
	if rv == nil || rv.Addr == "" {
		return nil
	}
	if !s.o.Quiet {
		fmt.Fprintf(s.o.Stderr, "vesload: shard %s of run %s is ready: waiting for the other shards at %s (up to %v)\n", rv.Shard, rv.RunID, rv.Addr, rv.ReadyTimeout)
	}
	gate, err := rv.AgreeStart(s.ctx, s.coord, clock.System{})
	if err != nil {
		return err
	}
	s.plan.Config.Start, rv.Start = gate, gate
	if !s.o.Quiet {
		rv.Announce(s.o.Stderr, time.Now())
	}
	return nil
}

// startFollow starts the delivery follower, which connects before the
// first request (a failure is exit 1, before any load), and hooks it into
// the run.
func (s *Session) startFollow() error {
	d := s.o.Delivery
	if d == nil {
		return nil
	}
	fl, err := delivery.StartChild(d.Options, d.Grace, d.Plan, d.Stderr)
	if err != nil {
		return err // the follower's bad option is a usage error
	}
	s.plan.Config.Observers = append(s.plan.Config.Observers, fl)
	s.follow = fl
	s.closers = append(s.closers, fl.Close)
	return nil
}

// attach registers the observers of the run, in the order they see each
// event, and the samplers.
func (s *Session) attach() error {
	o, cfg := &s.o, &s.plan.Config
	cfg.Observers = append(cfg.Observers, s.prog)
	s.later = s.prog.startLater()
	s.closers = append(s.closers, func() {
		if lost := s.later.close(time.Second); lost > 0 {
			s.prog.note(fmt.Sprintf("%d notes of the run were dropped: the terminal did not take them in time", lost))
		}
	})
	if o.Verbose {
		cfg.LogFailure = s.later.note
	}
	var err error
	if cfg.Target, err = sample.Target(o.Target); err != nil {
		return usage.Wrap(err)
	}
	if self, err := sample.NewSelf(); err == nil {
		cfg.Generator = self
	}
	if err := s.startMetrics(); err != nil {
		return err
	}
	if s.outs, err = observe.OpenStreams(o.JTL, o.HdrLog, s.plan.URL, time.Now()); err != nil {
		return err
	}
	cfg.Observers = append(cfg.Observers, s.outs.Observers(s.plan.Label, o.Labels)...)
	if err := s.startOutputs(); err != nil {
		return err
	}
	if len(o.AbortGates) > 0 {
		s.guard = observe.NewAbortGuard(o.AbortGates, observe.AbortWindow, s.stop, s.later.note)
		cfg.Observers = append(cfg.Observers, s.guard)
	}
	if o.Files.Result != "" && o.Files.Result != "-" && o.Checkpoint > 0 {
		s.ckpt = observe.NewCheckpointer(o.Files.Result, s.meta)
		cfg.Observers = append(cfg.Observers, s.ckpt)
		cfg.CheckpointEvery = o.Checkpoint
	}
	return s.startDashboard()
}

// startMetrics serves vesload's own metrics during the run (metrics.Live)
// when an address is given.
func (s *Session) startMetrics() error {
	if s.o.MetricsAddr == "" {
		return nil
	}
	live, err := metrics.StartLive(s.o.MetricsAddr, s.o.MetricsLinger)
	if err != nil {
		return usage.Wrap(err)
	}
	s.plan.Config.Observers = append(s.plan.Config.Observers, observe.Metrics{Exporter: live.Exporter})
	s.closers = append(s.closers, func() { live.Close(s.prog.note) })
	s.prog.note(fmt.Sprintf("serving metrics at http://%s/metrics", live.Addr))
	return nil
}

// startOutputs starts each enabled output of the table of outputs
// (loadgen/output/outputs) in order, with the run's label and, for one
// shard of several, the shard's index as the PodMonitor's shard label
// names it, and attaches it to the engine.
func (s *Session) startOutputs() error {
	if len(s.o.Outputs) == 0 {
		return nil
	}
	run := output.Run{Label: s.plan.Label, RunID: s.plan.RunConfig.RunID, Labels: s.plan.RunConfig.Labels, Note: s.prog.note}
	if sh := engine.ShardOf(s.plan.Config.Load); !sh.Whole() {
		run.Shard = strconv.Itoa(sh.Index)
	}
	for _, f := range s.o.Outputs {
		out, err := f.Start(run)
		if err != nil {
			return usage.Wrap(err)
		}
		s.writes = append(s.writes, out)
		s.plan.Config.Observers = append(s.plan.Config.Observers, out)
		s.closers = append(s.closers, out.Close) // a run that ended without a result
	}
	return nil
}

// startDashboard serves the live page when an address is given: the
// server takes a snapshot every second, and the checkpoint file, if any,
// still gets one every Checkpoint.
func (s *Session) startDashboard() error {
	if s.o.DashboardAddr == "" {
		return nil
	}
	srv, err := dashboard.Listen(dashboard.Options{Addr: s.o.DashboardAddr, Gates: s.o.Gates, Meta: s.meta})
	if err != nil {
		return usage.Wrap(err)
	}
	s.dash = srv
	var ckpt engine.Observer // the checkpoint file keeps its period
	if s.ckpt != nil {
		ckpt = s.ckpt
	}
	srv.Attach(&s.plan.Config, ckpt)
	linger := s.o.DashboardLinger
	s.closers = append(s.closers, func() {
		if linger > 0 {
			s.prog.note(fmt.Sprintf("serving the report at %s for %v more (Ctrl-C to stop)", srv.URL(), linger))
			time.Sleep(linger)
		}
		_ = srv.Close()
	})
	s.prog.note("serving the live report at " + srv.URL())
	return nil
}

// meta completes a result, a checkpoint's too, with what the set-up knows:
// the tool, the run's configuration and the set-up's notes.
func (s *Session) meta(res *result.Result) {
	res.Tool = result.Tool{Name: "vesload", Version: s.o.Version}
	res.Config = s.plan.RunConfig
	res.Warnings = append(res.Warnings, s.o.Notes...)
	res.Config.AllowErrors = s.o.AllowErrors
	res.Config.AbortOnFail = s.o.AbortOn
}

// Interrupt is what one signal does, by the run's phase: while the run
// goes on, the first stops the schedule and drains the requests in
// flight, a second aborts; while the result settles, it ends the delivery
// follower's grace wait; while the outputs are written, it makes a write
// stuck on a pipe give up and fall back, and the exit code 130. Only a
// signal marks a run interrupted. It is safe from any goroutine.
func (s *Session) Interrupt() {
	switch s.phase.Load() {
	case phaseSettling:
		s.stopSettle()
		return
	case phaseWriting:
		s.signalled.Store(true)
		s.stopOutputs(errors.New("interrupted"))
		return
	}
	if s.interrupts.Add(1) == 1 {
		s.signalled.Store(true)
		s.prog.note("stopping: draining requests in flight (press Ctrl-C again to abort)")
		s.stop()
		return
	}
	if eng := s.engine.Load(); eng != nil {
		eng.Abort()
	}
}

// Stop ends the schedule as an abort gate does: the requests in flight
// drain and Run returns the result so far (the engine's, cut short), but
// the session is not Interrupted, which only a signal makes it: a command
// that judges a run as it goes (`vesload capacity`, a step that has
// clearly failed) stops it with it and reads its figures as it would a
// whole run's. It does not wait and is safe from any goroutine.
func (s *Session) Stop() { s.stop() }

// HangUp is what a SIGHUP does: the terminal is gone (a jump host's SSH
// session dropped), but the run is not the terminal's, so it goes on to
// its end and writes every file as if nothing happened. The command line
// sends what would have been printed to nowhere; dropped counts those
// lines, and the result names the terminal among the outputs that lost
// part of the run (a live view: no record misses anything). It is safe
// from any goroutine; only the first call counts.
func (s *Session) HangUp(dropped func() int64) {
	s.hungUp.CompareAndSwap(nil, &hangUp{at: time.Now(), dropped: dropped})
}

// terminalLoss is the terminal's entry among the outputs that lost part
// of the run, when it hung up.
func (s *Session) terminalLoss(res *result.Result) (result.OutputLoss, bool) {
	h := s.hungUp.Load()
	if h == nil {
		return result.OutputLoss{}, false
	}
	when := "before the run started"
	if at := h.at.Sub(res.Started); at >= 0 {
		when = fmt.Sprintf("%.1fs into the run", at.Seconds())
	}
	return result.OutputLoss{Name: "terminal", Lines: h.dropped(), Live: true,
		Error: "hung up (SIGHUP) " + when + "; the run went on to its end"}, true
}

// Run builds the engine (and the transport of a plan without one) and
// runs it until its schedule ends, an abort gate fails or Interrupt stops
// it. A stream that failed costs only itself: the result says so.
func (s *Session) Run() (*result.Result, error) {
	cfg := &s.plan.Config
	var err error
	if cfg.Transport == nil && s.o.Transport != nil {
		cfg.Transport, err = s.o.Transport(cfg)
	}
	if p, ok := cfg.Transport.(transport.Prober); ok && err == nil && s.o.StartRule {
		s.start = observe.NewStartGuard(observe.StartWindow, observe.StartMin, p.Explain, s.stop, s.later.note)
		cfg.Observers = append(cfg.Observers, s.start)
	}
	var eng *engine.Engine
	if err == nil {
		eng, err = engine.New(*cfg)
	}
	if err != nil {
		s.outs.Close()
		return nil, usage.Wrap(err)
	}
	s.engine.Store(eng)
	res, err := eng.Run(s.ctx)
	s.phase.Store(phaseSettling)
	s.prog.done()
	// The streams are closed as soon as the engine is done with them;
	// what they lost goes into the result with the other sections.
	s.streams = streamReport{warnings: s.outs.Close(), lost: s.outs.Lost()}
	if res != nil {
		for _, w := range s.streams.warnings {
			s.prog.note(w)
		}
	}
	return res, err
}

// Finish completes the result in one place and one order, then judges it
// once (write: every section, then report/verdict), after which nothing
// changes it: every output, the summary and the exit code read the one
// verdict. The exit code is the verdict's, or 130 for a signal while the
// outputs were written. The summary is printed even when an output could
// not be written: the run happened and its figures are not lost.
func (s *Session) Finish(res *result.Result, stdout io.Writer) (int, error) {
	s.phase.Store(phaseSettling)
	baseline, err := s.write(res)
	if err != nil {
		return 0, err
	}
	s.dash.Finish(res) // the live page shows the final result
	s.phase.Store(phaseWriting)
	outErr := s.o.Files.Write(s.outputs, res, stdout, s.o.Stderr)
	summaryOut := stdout
	if s.o.Files.Result == "-" {
		summaryOut = s.o.Stderr
	}
	if err := summary.Text(summaryOut, res, summary.Options{Color: isTerminal(summaryOut), Appendix: baseline}); err != nil {
		return 0, fmt.Errorf("print summary: %w", err)
	}
	if outErr != nil {
		if s.signalled.Load() { // the fallbacks are named; the signal decides the code
			fmt.Fprintf(s.o.Stderr, "vesload: %v\n", outErr)
			return verdict.ExitInterrupted, nil
		}
		return 0, outErr
	}
	code := verdict.ExitCode(verdict.Of(res))
	if code == verdict.ExitOK && s.signalled.Load() {
		code = verdict.ExitInterrupted // a signal while the outputs were written
	}
	return code, nil
}

// judge decides the completed result once: the baseline gates, then
// every gate and built-in rule (report/verdict) with the abort gate that
// stopped the run, if one did, then the warning of a run over 1 % errors
// that no gate held. It returns the baseline gates' sentences for the
// summary, empty without --baseline.
func (s *Session) judge(res *result.Result, stopped []result.Threshold) (string, error) {
	decided := stopped
	var text strings.Builder
	if b := s.o.Baseline; b != nil {
		set, err := b.Judge(res)
		if err != nil {
			return "", err
		}
		decided = append(decided, set.Outcomes(b.Opts.Alpha)...)
		if err := set.BaselineText(&text, b.File, b.Opts.Alpha); err != nil {
			return "", err
		}
	}
	verdict.Judge(res, verdict.Options{Gates: s.o.Gates, AbortGates: s.o.AbortGates, Decided: decided, AllowErrors: s.o.AllowErrors})
	verdict.WarnUngatedErrors(res, len(s.o.Gates)+len(s.o.AbortGates))
	return text.String(), nil
}

// finishFollow waits out the grace for the events still due (Interrupt
// ends the wait, not the result) and adds the delivery section to the
// result; the follower stops then.
func (s *Session) finishFollow(res *result.Result) error {
	if s.follow == nil {
		return nil
	}
	defer s.follow.Close()
	return s.follow.Finish(s.settle, res, s.follow.Expected(res), s.prog.note)
}
