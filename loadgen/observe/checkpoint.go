package observe

import (
	"runtime/debug"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// Checkpointer rewrites the result file with each checkpoint of the run,
// so that a crash or a killed jump-host session loses at most one
// interval. The engine hands it checkpoints one at a time, in order, from
// one goroutine, and none after Run returns, so the final result written
// afterwards is never overwritten by an older snapshot.
type Checkpointer struct {
	loadgen.NopObserver
	path string
	fill func(*result.Result)
	err  error
}

// NewCheckpointer writes to path; fill completes each snapshot (tool,
// configuration) the way the final result is completed.
func NewCheckpointer(path string, fill func(*result.Result)) *Checkpointer {
	return &Checkpointer{path: path, fill: fill}
}

// Checkpoint implements loadgen.Observer.
func (c *Checkpointer) Checkpoint(r *result.Result) {
	c.fill(r)
	if err := report.Write(c.path, r); err != nil && c.err == nil {
		c.err = err
	}
	// A checkpoint copies and encodes every histogram: a burst of a few
	// megabytes of garbage once a minute. Handing it back to the system at
	// once keeps a ten-hour run's RSS where its first minute left it.
	debug.FreeOSMemory()
}

// Err is the first checkpoint that could not be written; read it once
// the run is over.
func (c *Checkpointer) Err() error { return c.err }
