package main

import (
	"runtime/debug"
	"sync"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// checkpointer rewrites the result file with a snapshot of the run every
// interval, so that a crash or a killed jump-host session loses at most
// that much. Writes happen off the recorder goroutine, one at a time, and
// never after the final result has been written.
type checkpointer struct {
	mu     sync.Mutex
	path   string
	fill   func(*result.Result)
	closed bool
	err    error
}

// hook installs the checkpointer on cfg. fill completes a snapshot (tool,
// configuration) the way the final result is completed.
func (c *checkpointer) hook(cfg *loadgen.Config, every time.Duration) {
	cfg.CheckpointEvery = every
	cfg.Hooks.Checkpoint = func(r *result.Result) {
		go c.write(r)
	}
}

func (c *checkpointer) write(r *result.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.fill(r)
	if err := report.Write(c.path, r); err != nil && c.err == nil {
		c.err = err
	}
	// A checkpoint copies and encodes every histogram: a burst of a few
	// megabytes of garbage once a minute. Handing it back to the system at
	// once keeps a ten-hour run's RSS where its first minute left it.
	debug.FreeOSMemory()
}

// close stops further checkpoints; the caller then writes the final result.
func (c *checkpointer) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return c.err
}
