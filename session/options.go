package session

import (
	"io"
	"time"

	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/loadgen/output/observe"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Options are everything a session needs besides its compiled plan, as
// plain values: the command line fills them from its flags, so that one
// session serves every command that runs the engine (`vesload run`,
// `vesload hv`).
type Options struct {
	// Stderr gets the live line, the notes and the summary when the
	// result goes to stdout.
	Stderr io.Writer
	// Version is vesload's, for the result's tool.
	Version string
	// Quiet keeps the live line off Stderr; the notes are still printed.
	Quiet bool
	// Verbose logs the first failing request of each error class.
	Verbose bool
	// Total is the run's planned length, for the live line; Messages
	// makes the line show HV-VES messages (the data rate and the
	// disconnected messages) instead of the pool.
	Total    time.Duration
	Messages bool

	// Gates are the run's thresholds; AbortGates the --abort-on-fail
	// gates, checked over a sliding window during the run and on the
	// whole run at the end; AbortOn their expressions, for the result's
	// config.
	Gates      []threshold.Threshold
	AbortGates []threshold.Threshold
	AbortOn    []string
	// AllowErrors lets a run in which nothing succeeded pass.
	AllowErrors bool
	// StartRule stops a run whose first requests all fail with one class
	// (observe.StartGuard), when the transport can name the cause.
	StartRule bool
	// Baseline, when set, judges the result against a stored one.
	Baseline *compare.Baseline

	// Files are the result and its renderings, written at the end; the
	// result file is also rewritten every Checkpoint (0: only at the
	// end).
	Files      files.Set
	Checkpoint time.Duration
	// JTL and HdrLog are the files written while the run goes on.
	JTL, HdrLog observe.Stream

	// Target says how the system under test is sampled; the command
	// gives its HTTP endpoints the target's TLS settings.
	Target sample.TargetOptions
	// MetricsAddr serves vesload's own metrics during the run and
	// MetricsLinger after it; empty for none.
	MetricsAddr   string
	MetricsLinger time.Duration
	// Outputs are the enabled outputs of the table of outputs
	// (loadgen/output/outputs), started in order with the run's label
	// and shard, finished in order when the result is completed.
	Outputs []output.Flags
	// DashboardAddr serves the live page during the run and
	// DashboardLinger after it; empty for none.
	DashboardAddr   string
	DashboardLinger time.Duration

	// Delivery, when set, follows the run's events onto the collector's
	// output topic.
	Delivery *Delivery
	// Rendezvous, when set, is a shard's plan: shard 0 of a run that
	// agrees on its start runs the coordinator, every shard waits for
	// the agreed instant in AgreeStart.
	Rendezvous *rendezvous.Plan

	// Emulator, when set, is the target's process the run started (the
	// built-in emulator): its end stops the run at once, as nothing is
	// left to send to, and the run exits 1.
	Emulator Mortal

	// Notes are warnings about the set-up, for the result.
	Notes []string
	// Labels, when set, names each request in per-request outputs (the
	// JTL's label) instead of the plan's one Label: HV-VES names the
	// producer.
	Labels func(seq int64) string
	// Complete, when set, adds what the command knows to the result
	// before it is judged (HV-VES: the receiver's counts).
	Complete func(*result.Result)
	// Transport builds the engine's transport when the plan has none
	// (REST); other protocols come with theirs.
	Transport func(*engine.Config) (transport.Transport, error)
}

// Mortal is a process the run started and depends on (the built-in
// emulator): Exited is closed when it ends, and ExitReason then says how.
type Mortal interface {
	Exited() <-chan struct{}
	ExitReason() string
}

// Delivery is how the run's events are followed onto the collector's
// output topic: by a follower in a process of its own
// (delivery.StartChild), which connects before the first request.
type Delivery struct {
	Options delivery.Options
	// Grace is how long after the last request an event may still
	// arrive before it counts as lost.
	Grace time.Duration
	Plan  delivery.Plan
	// Stderr gets the follower's error lines when it stops.
	Stderr io.Writer
}
