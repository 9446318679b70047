package delivery

import (
	"context"
	"fmt"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
)

// DefaultAloneEvents sizes a lone follower's bitmap when nothing tells
// how many events the run sends: 16 Mi events, 2 MiB.
const DefaultAloneEvents = 1 << 24

// Alone is a follower on its own beside a run's generators (`vesload
// consume`: beside the shards of a run, or any generator), whose result
// `merge.Shards` joins with theirs (docs/ARCHITECTURE.md,
// "Delivery"). It knows the run by its plan (due times from a constant
// Rate, or none), its start and its duration, or learns all three when
// it takes part in the run's start agreement (Agree).
type Alone struct {
	Plan     Plan
	Start    time.Time
	Duration time.Duration
	// Agree, when set, is how the follower takes part in the run's start
	// agreement once its source is open, so that it reads before the
	// first event is sent: it returns the whole run's plan, its length
	// and its start, which replace Plan (but its RunID), Duration and
	// Start; Expect below zero becomes the plan's events.
	Agree func(ctx context.Context) (Agreed, time.Time, error)
	// Grace is how long after the run's end an event may still arrive.
	Grace time.Duration
	// Expect stops the wait once this many distinct events arrived
	// (below zero: wait for the end and the grace).
	Expect int64
	// Tool names the program in the result.
	Tool result.Tool
}

// AloneEvents is the highest event number a lone follower follows, plus
// one: expect when given, else the events of rps × duration (× batch),
// else DefaultAloneEvents.
func AloneEvents(expect int64, rps float64, duration time.Duration, batch int) uint64 {
	switch {
	case expect > 0:
		return uint64(expect)
	case rps > 0:
		return uint64(rps*duration.Seconds()+1) * uint64(max(batch, 1))
	}
	return DefaultAloneEvents
}

// MaxAgreedEvents bounds the plan a follower takes from the start
// agreement, whose bitmaps it sizes (two of 512 MiB): 2^32 events, a day
// at 49,000 a second.
const MaxAgreedEvents = 1 << 32

// Agreed is what a lone follower learns when it takes part in a run's
// start agreement (beside the start): the whole run's plan, which only
// the generator that hands out the start knows, and how long the run
// sends.
type Agreed struct {
	Plan Plan          `json:"plan"`
	Span time.Duration `json:"span"`
}

// Follow connects (open connects and preflights the source), takes part
// in the start agreement when Agree is set, tells ready the instant it
// will stop, reads until the run's end plus the grace, Expect events or
// the end of ctx (the result is then marked interrupted), and returns a
// result whose delivery is marked consumer.
func (a Alone) Follow(ctx context.Context, open func(Config) (Source, string, error), ready func(end time.Time)) (*result.Result, error) {
	at := NewStart()
	var f *Follower
	var err error
	if a.Agree == nil {
		at.Set(a.Start)
		f, _, err = FollowPlan(a.Plan, at, open)
	} else {
		f, err = a.agree(ctx, at, open)
	}
	if err != nil {
		return nil, err
	}
	end := a.Start.Add(a.Duration + a.Grace)
	ready(end)
	timer := time.NewTimer(time.Until(end))
	defer timer.Stop()
	f.Wait(ctx, a.Expect, timer.C)
	interrupted := ctx.Err() != nil
	ended := time.Now()
	d, err := f.Close(max(a.Expect, 0), a.Grace)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	d.Consumer = true
	return &result.Result{
		Schema: result.Schema, Tool: a.Tool,
		Config:  result.RunConfig{RunID: a.Plan.RunID, RPS: a.Plan.Rate, DurationS: a.Duration.Seconds(), Batch: max(a.Plan.Batch, 1)},
		Started: a.Start, Ended: ended, DurationS: ended.Sub(a.Start).Seconds(), Interrupted: interrupted,
		Errors: map[string]int64{}, Timeline: []result.Second{}, Delivery: d,
	}, nil
}

// agree opens the source (which fixes where reading starts), takes part
// in the start agreement and starts reading with what it learnt; a's
// plan, start, duration and expectation become the run's.
func (a *Alone) agree(ctx context.Context, at *Start, open func(Config) (Source, string, error)) (*Follower, error) {
	src, name, err := open(Config{RunID: a.Plan.RunID})
	if err != nil {
		return nil, err
	}
	tally, err := a.agreed(ctx, at)
	if err != nil {
		src.Close()
		return nil, err
	}
	return Follow(src, tally, name, time.Now), nil
}

// agreed takes part in the start agreement, checks the plan it hands
// out, makes it a's and sets at; the tally is sized by that plan.
func (a *Alone) agreed(ctx context.Context, at *Start) (*Tally, error) {
	ag, start, err := a.Agree(ctx)
	switch {
	case err != nil:
		return nil, err
	case ag.Plan.RunID != a.Plan.RunID:
		return nil, fmt.Errorf("the run's plan is of run %q, not %q", ag.Plan.RunID, a.Plan.RunID)
	case ag.Plan.Events == 0 || ag.Span <= 0:
		return nil, fmt.Errorf("the run's plan sends %d events over %v: nothing to follow", ag.Plan.Events, ag.Span)
	case ag.Plan.Events > MaxAgreedEvents:
		return nil, fmt.Errorf("the run's plan sends %d events: more than a consumer follows (%d)", ag.Plan.Events, uint64(MaxAgreedEvents))
	}
	a.Plan, a.Start, a.Duration = ag.Plan, start, ag.Span
	if a.Expect < 0 {
		a.Expect = int64(ag.Plan.Events)
	}
	at.Set(start)
	cfg, err := a.Plan.Config(at)
	if err != nil {
		return nil, err
	}
	return NewTally(cfg)
}

// Prepare checks the follower (Check) and completes what was not given:
// Plan.Events, when zero, from AloneEvents.
func (a *Alone) Prepare() error {
	if err := a.Check(); err != nil {
		return err
	}
	if a.Plan.Events == 0 && a.Agree == nil {
		a.Plan.Events = AloneEvents(a.Expect, a.Plan.Rate, a.Duration, a.Plan.Batch)
	}
	return nil
}

// Group is the Kafka consumer group of a lone follower given none: one
// of its own, so that a run --consume of the same run id (whose group is
// vesload-<run id>) never shares the partitions with it.
func (a Alone) Group() string { return "vesload-" + a.Plan.RunID + "-consume" }

// Check validates a lone follower's figures as `vesload consume` is
// given them (--run-id, --duration, --rps, --batch, --expect, --grace),
// before anything connects; errors are usage errors naming the option.
func (a Alone) Check() error {
	switch {
	case a.Plan.RunID == "":
		return usage.Errorf("--run-id: required: the run whose events are followed")
	case a.Duration <= 0 && a.Agree == nil:
		return usage.Errorf("--duration: required and positive: the consumer stops --grace after the run's end")
	case a.Plan.Rate < 0:
		return usage.Errorf("--rps: must not be negative, got %g", a.Plan.Rate)
	case a.Plan.Batch < 1:
		return usage.Errorf("--batch: at least 1, got %d", a.Plan.Batch)
	case a.Expect < -1:
		return usage.Errorf("--expect: must not be negative, got %d", a.Expect)
	case a.Grace < 0:
		return usage.Errorf("--grace: must not be negative, got %v", a.Grace)
	}
	return nil
}
