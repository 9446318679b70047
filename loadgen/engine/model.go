package engine

import (
	"context"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Model says when requests are due and owns the loop that dispatches them
// (docs/ARCHITECTURE.md, "Model"). There are two: *Schedule, the open
// model, where request n is due at a time fixed in advance whatever the
// target does, and *Closed, the closed model, where a number of requests
// is kept in flight and each is sent when the previous one is answered.
// The engine drives either through this interface alone.
type Model interface {
	// Span is how long the load lasts by design.
	Span() time.Duration
	// MeanRate is the asked-for mean request rate, per second; 0 for a
	// closed model, which asks for none.
	MeanRate() float64
	// dispatch hands every due request to d until the model ends or a
	// stop comes, and reports whether it was stopped.
	dispatch(ctx context.Context, d *dispatcher) (interrupted bool)
	// validate checks the model against the pool size.
	validate(pool int) error
	// facts describes the model to the recorder and the result.
	facts(pool int) modelFacts
}

var (
	_ Model = (*Schedule)(nil)
	_ Model = (*Closed)(nil)
)

// modelFacts is what the rest of the engine needs to know of a model.
type modelFacts struct {
	// total is the number of requests scheduled over the run, or -1 when
	// the model schedules exactly what it sends.
	total int64
	// rate is the asked-for mean rate and peak the highest, 0 when the
	// model has none.
	rate, peak float64
	// perSecond, when set, gives the requests scheduled in a second.
	perSecond func(s int64) int64
	// concurrency, when set, gives the requests kept in flight in a second.
	concurrency func(s int64) int
	// steps is the number of closed-model steps, each with its own tally,
	// and step gives step i's concurrency, start and duration.
	steps int
	step  func(i int) result.Step
	// warm is how many connections to open before the clock starts.
	warm int
}
