package engine

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
)

// Body renders the payload of one request. Request seq (0-based) is due
// at due. Implementations are called from many goroutines at once and
// append to a reused buffer, so the hot path need not allocate. The
// built-in VES events and compiled templates of package ves satisfy it.
type Body interface {
	AppendBody(dst []byte, seq uint64, due time.Time) []byte
}

// WorkerBody is a Body that can depend on the worker (one connection of
// the pool) sending it, such as a template whose data rows go one per
// worker: every connection then sends as one simulated network function.
type WorkerBody interface {
	Body
	AppendBodyFor(dst []byte, seq, worker uint64, due time.Time) []byte
}

// Config is everything one run needs. The command line and profiles build
// it; the engine reads it and never changes it. It names no protocol:
// where and how a request goes (URL, method, headers, credentials, TLS,
// the statuses that count as success) are the options of the Transport,
// which the caller builds from them (the VES REST one: rest.Options).
type Config struct {
	// Load is when requests are due: an open-model *Schedule or a
	// closed-model *Closed ramp.
	Load Model
	Body Body
	// Mix, when set, replaces Body with a weighted mix of request kinds;
	// the transport knows each kind by its index (transport.Request.Kind).
	Mix []Request

	Pool     int           // maximum connections (and requests in flight)
	PoolWait time.Duration // how long a due request may wait for a free connection
	Timeout  time.Duration // per request, and the drain limit at the end

	NoPreflight bool
	// ProbeRequest makes the preflight send one real request too (when
	// the transport is a transport.Prober): the run's first request,
	// rendered with transport.PreflightSeq and kept out of its figures,
	// so that a target that refuses every request fails in a second. A
	// shard of several, or a run with a Start, sends none.
	ProbeRequest bool

	// Start, when set, holds the clock start back until an instant shared
	// by the shards of one run; a shard later than its tolerance does not
	// run.
	Start *StartGate
	// Clock is the run's one time source (nil: clock.System): the start
	// gate, the dispatcher's waits and readings, the pool waiter, the
	// closed model's steps, the ticker and the drain read it. Tests pass
	// clock.Runtime inside a testing/synctest bubble, where its time is
	// virtual.
	Clock clock.Clock

	// CheckpointEvery is how often the observers get a Checkpoint (whole
	// seconds; 0: never).
	CheckpointEvery time.Duration

	// LogFailure, when set, is handed the first failing exchange of each
	// error class, request and response, credentials hidden (-v). Only
	// a failing request is looked at, and only the first of its class is
	// formatted: the path of a successful request does not change. New
	// hands it to a Transport that is a transport.FailureLogger.
	LogFailure func(string)

	// Transport sends the requests and is required: the engine links no
	// protocol, so the caller builds it for the target (the VES REST one
	// with rest.New, from the options a scenario compiles) and sets it
	// here. See package transport.
	Transport transport.Transport

	// Observers watch the run, called in this order for every event;
	// see Observer.
	Observers []Observer
	// Target, when set, is sampled once a second in its own goroutine;
	// Generator, vesload's own process (sample.NewSelf when nil), on each
	// second's tick, as the one meter of the generator's CPU and memory.
	// A failed sample never stops the run.
	Target    Sampler
	Generator Sampler
}

func (c *Config) validate() error {
	switch {
	case c.Transport == nil:
		return fmt.Errorf("no transport: the caller builds one for the target (the VES REST one is rest.New) and sets Config.Transport")
	case c.Load == nil:
		return fmt.Errorf("want a load: an open-model schedule or a closed-model ramp")
	case c.Body == nil && len(c.Mix) == 0:
		return fmt.Errorf("no body")
	case c.Pool < 1:
		return fmt.Errorf("pool %d: must be at least 1", c.Pool)
	case c.PoolWait < 0:
		return fmt.Errorf("pool wait %v: must not be negative", c.PoolWait)
	case c.Timeout <= 0:
		return fmt.Errorf("timeout %v: must be positive", c.Timeout)
	}
	return c.Load.validate(c.Pool)
}
