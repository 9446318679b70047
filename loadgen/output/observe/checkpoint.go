package observe

import (
	"runtime/debug"
	"sync"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// Checkpointer rewrites the result file with each checkpoint of the run,
// so that a crash or a killed jump-host session loses at most one
// interval. The engine hands it checkpoints one at a time, in order, from
// one goroutine, and none after Run returns, so the final result written
// afterwards is never overwritten by an older snapshot.
type Checkpointer struct {
	engine.NopObserver
	path string
	fill func(*result.Result)
	mu   sync.Mutex // guards err, read once the run is over
	err  error
}

// NewCheckpointer writes to path; fill completes each snapshot (tool,
// configuration) the way the final result is completed.
func NewCheckpointer(path string, fill func(*result.Result)) *Checkpointer {
	return &Checkpointer{path: path, fill: fill}
}

// OutputName implements engine.OutputNamer: a checkpoint a newer one
// replaced loses nothing, so only a checkpointer that fell far behind
// shows in the result.
func (c *Checkpointer) OutputName() (name string, live bool) { return "--checkpoint", false }

// ReadsTicks implements engine.TickReader: it reads checkpoints alone, so
// the live updates and seconds its outlet skips cost it nothing.
func (c *Checkpointer) ReadsTicks() (updates, seconds bool) { return false, false }

// Checkpoint implements engine.Observer.
func (c *Checkpointer) Checkpoint(r *result.Result) {
	c.fill(r)
	if err := resultfile.Write(c.path, r); err != nil {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
	// A checkpoint copies and encodes every histogram: a burst of a few
	// megabytes of garbage once a minute. Handing it back to the system at
	// once keeps a ten-hour run's RSS where its first minute left it.
	debug.FreeOSMemory()
}

// Err is the first checkpoint that could not be written; read it once
// the run is over.
func (c *Checkpointer) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
