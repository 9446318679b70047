package output

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// Run is what an output learns of the run it watches when it starts, so
// that its records name the run as every other record does. It carries
// no context of the run: stopping a run must not cut off what the output
// still has to write, which Output.Finish bounds with its own wait.
type Run struct {
	// Label is the run's request label (the plan's), which per-second
	// records name their requests by.
	Label string
	// Shard is the index of one shard of a run split across generators,
	// empty for a whole run: shards write the same series at the same
	// seconds, which a database would otherwise keep only one of.
	Shard string
	// RunID is the run's id, shared by its shards; empty when none was
	// given.
	RunID string
	// Labels are the run's labels (--label, a profile's labels).
	Labels map[string]string
	// Note prints one line about the set-up (where the output writes)
	// before the run starts; never nil.
	Note func(string)
}

// FinalWait is how long the end of a run waits for each output to take
// what is still queued (Output.Finish): a store that never answers must
// not stretch a 5 s run by seconds. What it does not take in that time is
// counted as lost.
const FinalWait = 1500 * time.Millisecond

// Output is a started output. It reads the engine's snapshots as an
// engine.Observer on a goroutine of its own (docs/ARCHITECTURE.md,
// "Observers"), so nothing it does can slow the run, and names itself
// with OutputName when it loses something.
type Output interface {
	engine.Observer
	engine.OutputNamer
	// Finish, once the engine has stopped, flushes what is queued,
	// waiting up to wait, and adds to res what reached the output (its
	// section) and, when it lost part of the run, a result.OutputLoss and
	// a warning: a failed output never fails the run itself.
	Finish(res *result.Result, wait time.Duration)
	// Close releases the output when the run ended without a result; it
	// does nothing after Finish.
	Close()
}

// Flags are one output's values on one command line. The command line
// registers them, checks them before anything starts and hands the
// enabled ones to the session, which starts them; `vesload kube` turns
// them into the pods' arguments.
type Flags interface {
	// Add registers the output's flags on fs (and keeps fs to learn
	// which flags were given).
	Add(fs *pflag.FlagSet)
	// Enabled reports whether the flag that turns the output on was
	// given.
	Enabled() bool
	// Check refuses bad values before anything starts, in one line that
	// names the flag; the command line makes it a usage error (exit 2).
	Check() error
	// KubeArgs are the flags every pod of `vesload kube` runs with for
	// this output, none when it is off. The manifests are written to
	// files and clusters, so a value that would carry a credential into
	// them is refused, in one line naming the flag.
	KubeArgs() ([]string, error)
	// Start starts the output for run r. Its error is one of the
	// options (an unusable value), which the session reports as bad
	// usage.
	Start(r Run) (Output, error)
}

// Entry is one output in the table of outputs.
type Entry struct {
	// Flag is the flag that turns the output on, without dashes
	// ("influx-url"): the table's key.
	Flag string
	// Doc is the output's line in README.md's list of outputs (a test
	// holds the two together).
	Doc string
	// New returns fresh values of the output's flags for one command's
	// flag set.
	New func() Flags
}
