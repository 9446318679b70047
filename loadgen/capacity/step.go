package capacity

import (
	"context"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Runner runs one step at rate requests a second and reports it: the
// caller's engine, session and target stay behind it, so a test gives a
// function modelling a target of known capacity.
type Runner func(ctx context.Context, rate float64) (StepResult, error)

// StepResult is what one step measured.
type StepResult struct {
	// Window is the step's measured seconds, after its warm-up, as a
	// result the SLO gates read (report/threshold).
	Window *result.Result
	// Took is how long the step lasted, warm-up included: the search
	// counts its budget in it.
	Took time.Duration
	// StoppedEarly says that the runner cut the step short because it
	// had clearly failed (Clearly).
	StoppedEarly bool
	// Generator is the generator's health during the step, from which a
	// failure is laid to the generator or the target.
	Generator Health
	// TargetCPUMaxPct is the target's highest CPU during the measured
	// seconds, nil when it was not sampled.
	TargetCPUMaxPct *float64
	// File, when set, is where the step's whole run result was written,
	// for report, compare and merge.
	File string
}

// Health is what the generator says of itself during a step.
type Health struct {
	// Saturated is the engine's verdict (engine.Saturated): dispatch lag
	// p99 over 5 ms or its CPU at 90 % of its cores; CPUSaturated its CPU
	// half (engine.CPUSaturated), which no target causes.
	Saturated, CPUSaturated bool
	// DispatchLagP99Ms is how late the dispatcher reached its requests.
	DispatchLagP99Ms float64
	// SchedP99Ms is how long the generator's goroutines waited, runnable,
	// before they ran: the p99 of each measured second, averaged (see
	// Window.SchedP99Ms). A generator short of CPU times that wait into
	// every answer, so a target that answered at once looks slow, and
	// looks as if it held the pool, while its CPU reading can be low (the
	// core was another process's, or the hypervisor's).
	SchedP99Ms float64
	// Pool is the step's connection pool, PoolExhausted the requests due
	// that found no connection free.
	Pool          int
	PoolExhausted int64
}
