package sample

import (
	"context"
	"errors"
	"math"
	"time"
)

// Reading is one sample of a process or a remote target. Rates (CPU, page
// faults) cover the time since the sampler's previous reading.
type Reading struct {
	// CPUPct is CPU use where 100 means one core fully busy, as pidstat
	// reports it; UserPct and SystemPct split it when the source can.
	CPUPct, UserPct, SystemPct float64
	// NoCPU says that the CPU figures are unknown in this reading: the
	// first sample of a rate, a counter reset, or a source without a CPU
	// series. Aggregate leaves such readings out of the CPU average.
	NoCPU bool
	// RSSBytes and VSZBytes are resident and virtual memory; MemPct is the
	// resident share of the machine's memory.
	RSSBytes, VSZBytes int64
	MemPct             float64
	// AnonBytes is the anonymous share of RSSBytes (heap, stacks): what a
	// process's memory grows by, without the shared, clean pages of its
	// binary. 0 when the source cannot tell.
	AnonBytes int64
	// GoHeapBytes is the Go heap in use (spans holding objects), for
	// vesload's own process only; 0 elsewhere.
	GoHeapBytes int64
	// SchedP99Ms is, for vesload's own process only, the 99th percentile
	// of how long its goroutines waited, runnable, before they ran, since
	// the previous reading: a generator that could not run on time times
	// its own delay into every request, which its CPU reading alone does
	// not show when something else held the core.
	SchedP99Ms float64
	// MinorFaultsPerSec and MajorFaultsPerSec are page faults per second.
	MinorFaultsPerSec, MajorFaultsPerSec float64
	// Threads counts the threads of all sampled processes.
	Threads int32
	// Processes counts the processes summed into this reading (local
	// samplers only), so that a name matching nothing is visible.
	Processes int32
	// Extra holds named series, such as PromQL queries or the machine CPU
	// of a Micrometer endpoint. Values are always finite.
	Extra map[string]float64
	// Exited says that a sampled process is gone. It is a fact about the
	// target to report, not an error of vesload.
	Exited bool
}

// Sampler takes readings of one target. Sample is called from one goroutine
// at a time, typically once a second; Series may be called from another.
type Sampler interface {
	// Source names what is sampled ("pid:1234", "process:java",
	// "metrics:URL", "promql:URL"), never with credentials.
	Source() string
	// Sample takes one reading. now is the time the reading stands for;
	// rates are computed from it, never from the wall clock, so tests can
	// drive a sampler with fake time.
	Sample(ctx context.Context, now time.Time) (Reading, error)
	// Series names the metric series a remote sampler actually used; local
	// samplers return nil.
	Series() []string
}

// ErrPartial marks an error returned together with a usable reading: some
// series could not be read (one PromQL query failed) but the others could.
// Aggregate counts the error and still folds in the reading.
var ErrPartial = errors.New("partial sample")

// finite reports whether v can go into a reading: NaN and infinities would
// break averages and cannot be encoded in JSON.
func finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0)
}
