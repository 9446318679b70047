package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/report/threshold"
)

// Options say where the search starts and stops and what a step must
// hold. Rates are requests a second.
type Options struct {
	// Start is the first step's rate; Max the highest rate tried.
	Start, Max float64
	// PrecisionPct is how close, in percent of the highest pass, the
	// lowest fail must come before the bisection stops.
	PrecisionPct float64
	// Budget bounds the whole search; Step is one step's planned length,
	// warm-up included: no step starts that the budget could not finish.
	Budget, Step time.Duration
	// SLOs are the gates every step's measured window must hold.
	SLOs []threshold.Threshold
	// Progress, when set, sees each step once judged, with the budget
	// spent so far.
	Progress func(result.CapacityStep)
	// Quantum, when set, is the rate of one unit the load is counted in
	// (an HV-VES producer's messages a second, when the search adds
	// producers): every rate tried is a whole number of them, Start and
	// Max rounded to one, and the bisection ends at one unit apart.
	Quantum float64
}

// The limits of Options.PrecisionPct.
const (
	MinPrecisionPct = 0.1
	MaxPrecisionPct = 50
)

// Check refuses options no search can run with, naming the field (the
// command line names its flag).
func (o Options) Check() error {
	switch {
	case !(o.Quantum >= 0) || math.IsInf(o.Quantum, 0):
		return usage.Errorf("quantum %g: want 0 or a rate above 0", o.Quantum)
	case !(o.Start > 0) || math.IsInf(o.Start, 0):
		return usage.Errorf("start %g: want a rate above 0", o.Start)
	case !(o.Max >= o.Start) || math.IsInf(o.Max, 0):
		return usage.Errorf("max %g is below start %g: want max at least start", o.Max, o.Start)
	case !(o.PrecisionPct >= MinPrecisionPct && o.PrecisionPct <= MaxPrecisionPct):
		return usage.Errorf("precision %g%%: want %g%% to %g%%", o.PrecisionPct, float64(MinPrecisionPct), float64(MaxPrecisionPct))
	case o.Step <= 0:
		return usage.Errorf("step %v: want a positive duration", o.Step)
	case o.Budget < o.Step:
		return usage.Errorf("budget %v is shorter than one step (%v)", o.Budget, o.Step)
	case len(o.SLOs) == 0:
		return usage.Errorf("no SLO: a step needs at least one gate to be judged by")
	}
	return nil
}

// The phases of a search, as each step records them.
const (
	PhaseClimb   = "climb"
	PhaseDescend = "descend"
	PhaseBisect  = "bisect"
	PhaseConfirm = "confirm"
)

// maxRounds bounds how often the boundary may move on confirmation
// before the search says it is too noisy to place.
const maxRounds = 4

// errBudget ends a search whose next step would overrun the budget.
var errBudget = errors.New("budget spent")

// search is one search's state: the highest pass and the lowest fail so
// far (0: none yet), and every rate's verdicts.
type search struct {
	o      Options
	run    Runner
	lo, hi float64
	votes  map[float64]*[2]int // pass, fail
	spent  time.Duration
	// longest is the longest step so far, set-up and settling included:
	// the next step is not started unless the budget holds that much.
	longest   time.Duration
	steps     []result.CapacityStep
	confirmed bool
	undecided string
}

// Search finds the highest rate at which every SLO holds: a climb by
// doubling from Start until a step fails (halving below Start when the
// first fails), a bisection to PrecisionPct, then the boundary's two
// rates run again, a third time when the two runs of one disagree, so
// that one unlucky step does not decide. A boundary that moves is
// searched again. It never starts a step the budget cannot finish, and
// says then what it could not decide; a step is taken to last as long as
// the longest so far, set-up and settling included, so that the budget
// is kept, not overrun by one step's set-up. An error of the runner or ctx ends
// it, with the outcome so far.
func Search(ctx context.Context, run Runner, o Options) (*result.Capacity, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Quantum > 0 {
		o.Start, o.Max = max(o.Quantum, math.Round(o.Start/o.Quantum)*o.Quantum), max(o.Quantum, math.Floor(o.Max/o.Quantum)*o.Quantum)
		o.Max = max(o.Max, o.Start)
	}
	s := &search{o: o, run: run, votes: map[float64]*[2]int{}}
	err := s.search(ctx)
	if errors.Is(err, errBudget) {
		s.undecided, err = s.budgetWords(), nil
	}
	return s.outcome(), err
}

func (s *search) search(ctx context.Context) error {
	for range maxRounds {
		if err := s.bracket(ctx); err != nil || s.lo == 0 || s.hi == 0 {
			return err
		}
		if err := s.bisect(ctx); err != nil {
			return err
		}
		settled, err := s.confirm(ctx)
		if err != nil || settled {
			return err
		}
	}
	s.undecided = fmt.Sprintf("the boundary moved on each of %d confirmations: the target's capacity is too noisy to place with steps this short", maxRounds)
	return nil
}

// bracket finds a fail above the highest pass by doubling, and a pass
// below the lowest fail by halving.
func (s *search) bracket(ctx context.Context) error {
	if s.hi == 0 {
		rate := s.o.Start
		if s.lo > 0 {
			rate = min(s.lo*2, s.o.Max)
		}
		for s.hi == 0 {
			if s.lo >= s.o.Max {
				s.undecided = fmt.Sprintf("every step held up to the maximum, %s/s: the capacity is higher", format.Num(s.o.Max))
				return nil
			}
			pass, err := s.step(ctx, PhaseClimb, rate)
			if err != nil {
				return err
			}
			if pass {
				s.lo, rate = rate, min(rate*2, s.o.Max)
			} else {
				s.hi = rate
			}
		}
	}
	for s.lo == 0 {
		rate := s.round(s.hi / 2)
		if rate < s.minRate() || rate >= s.hi {
			s.undecided = fmt.Sprintf("no step held the SLOs, down to %s/s", format.Num(s.hi))
			return nil
		}
		pass, err := s.step(ctx, PhaseDescend, rate)
		if err != nil {
			return err
		}
		if pass {
			s.lo = rate
		} else {
			s.hi = rate
		}
	}
	return nil
}

// minRate is the lowest rate a descent tries.
func (s *search) minRate() float64 { return max(s.o.Start/64, 1, s.o.Quantum) }

// round is a rate as the search tries it: a whole number of quanta, or
// as a person writes it (roundRate).
func (s *search) round(r float64) float64 {
	if q := s.o.Quantum; q > 0 {
		return max(q, math.Round(r/q)*q)
	}
	return roundRate(r)
}

// bisect halves the gap between the highest pass and the lowest fail
// until it is within the precision.
func (s *search) bisect(ctx context.Context) error {
	for s.gapPct() > s.o.PrecisionPct {
		mid := s.round((s.lo + s.hi) / 2)
		if mid <= s.lo || mid >= s.hi {
			return nil // as close as rates are written
		}
		pass, err := s.step(ctx, PhaseBisect, mid)
		if err != nil {
			return err
		}
		if pass {
			s.lo = mid
		} else {
			s.hi = mid
		}
	}
	return nil
}

// confirm runs the highest pass and the lowest fail again. A verdict that
// does not hold moves the boundary (settled false) to the rates the
// votes now say.
func (s *search) confirm(ctx context.Context) (settled bool, err error) {
	pass, err := s.again(ctx, s.lo)
	if err != nil {
		return false, err
	}
	if !pass {
		s.hi, s.lo = s.lo, s.highestPassBelow(s.lo)
		return false, nil
	}
	if pass, err = s.again(ctx, s.hi); err != nil {
		return false, err
	}
	if pass {
		s.lo, s.hi = s.hi, s.lowestFailAbove(s.hi)
		return false, nil
	}
	s.confirmed = true
	return true, nil
}

// again runs rate once more, and a third time when the two runs
// disagree; it returns the majority's verdict.
func (s *search) again(ctx context.Context, rate float64) (bool, error) {
	for {
		if _, err := s.step(ctx, PhaseConfirm, rate); err != nil {
			return false, err
		}
		if v := s.votes[rate]; v[0] != v[1] {
			return v[0] > v[1], nil
		}
	}
}

// passes is a rate's verdict by its votes; a tie fails (no pass is
// trusted that a fail contradicts).
func (s *search) passes(rate float64) bool {
	v := s.votes[rate]
	return v != nil && v[0] > v[1]
}

func (s *search) highestPassBelow(limit float64) float64 {
	best := 0.0
	for r := range s.votes {
		if r < limit && r > best && s.passes(r) {
			best = r
		}
	}
	return best
}

func (s *search) lowestFailAbove(limit float64) float64 {
	best := 0.0
	for r := range s.votes {
		if r > limit && (best == 0 || r < best) && !s.passes(r) {
			best = r
		}
	}
	return best
}

// gapPct is the gap between the lowest fail and the highest pass, in
// percent of the highest pass.
func (s *search) gapPct() float64 {
	if s.lo <= 0 || s.hi <= 0 {
		return math.Inf(1)
	}
	return 100 * (s.hi - s.lo) / s.lo
}

// step runs, judges and records one step, unless the budget cannot
// finish it.
func (s *search) step(ctx context.Context, phase string, rate float64) (bool, error) {
	if s.spent+max(s.o.Step, s.longest) > s.o.Budget {
		return false, errBudget
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	r, err := s.run(ctx, rate)
	if err != nil {
		return false, fmt.Errorf("step at %s/s: %w", format.Num(rate), err)
	}
	s.spent += r.Took
	s.longest = max(s.longest, r.Took)
	st := s.record(phase, rate, r)
	v := s.votes[rate]
	if v == nil {
		v = new([2]int)
		s.votes[rate] = v
	}
	if st.Pass {
		v[0]++
	} else {
		v[1]++
	}
	if s.o.Progress != nil {
		s.o.Progress(st)
	}
	return st.Pass, nil
}

// record judges a step and keeps its figures.
func (s *search) record(phase string, rate float64, r StepResult) result.CapacityStep {
	w := r.Window
	if w == nil {
		w = &result.Result{}
	}
	st := result.CapacityStep{N: len(s.steps) + 1, Phase: phase, OfferedRPS: rate, AchievedRPS: w.RPS.Achieved,
		Requests: w.Attempted(), P50Ms: w.Latency.P50, P99Ms: w.Latency.P99, StoppedEarly: r.StoppedEarly,
		TargetCPUMaxPct: r.TargetCPUMaxPct, GeneratorSaturated: r.Generator.Saturated,
		DispatchLagP99Ms: r.Generator.DispatchLagP99Ms, GeneratorSchedP99Ms: math.Round(r.Generator.SchedP99Ms*100) / 100, PoolExhausted: r.Generator.PoolExhausted,
		TookS: r.Took.Seconds(), SpentS: s.spent.Seconds(), BudgetS: s.o.Budget.Seconds(), Result: r.File}
	st.ErrorRatePct, _ = w.ErrorRatePct()
	st.Producers = s.units(rate)
	if v, why := e2eP99(w); why == "" {
		st.E2EP99Ms = &v
	}
	st.Pass, st.Gates, st.Decided = judge(s.o.SLOs, w)
	if !st.Pass {
		st.Cause = Cause(rate, r, s.o.SLOs, st.Gates)
	}
	s.steps = append(s.steps, st)
	return st
}

// e2eP99 reads a step's travel time into Kafka through the registry, and
// why it has none.
func e2eP99(w *result.Result) (float64, string) {
	m, ok := metric.Lookup(metric.E2EP99)
	if !ok {
		return 0, "no metric " + metric.E2EP99
	}
	return m.Read(w)
}

// budgetWords says what a search the budget stopped could not decide.
func (s *search) budgetWords() string {
	switch {
	case s.lo == 0 && s.hi == 0:
		return "the budget ran out before a step was judged"
	case s.hi == 0:
		return fmt.Sprintf("the budget ran out while climbing: the target held %s/s, its capacity is at least that", format.Num(s.lo))
	case s.lo == 0:
		return fmt.Sprintf("the budget ran out while descending: no step held the SLOs, down to %s/s", format.Num(s.hi))
	case s.gapPct() > s.o.PrecisionPct:
		return fmt.Sprintf("the budget ran out while bisecting: the capacity lies between %s/s and %s/s (%s %% apart, %s %% asked)",
			format.Num(s.lo), format.Num(s.hi), format.Num(s.gapPct()), format.Num(s.o.PrecisionPct))
	}
	return fmt.Sprintf("the budget ran out before the boundary (%s/s held, %s/s broke) was confirmed by running it again",
		format.Num(s.lo), format.Num(s.hi))
}

// outcome is the search's result, read off its state.
func (s *search) outcome() *result.Capacity {
	out := &result.Capacity{MaxRPS: s.lo, FailRPS: s.hi, AskedPrecisionPct: s.o.PrecisionPct, Confirmed: s.confirmed,
		Undecided: s.undecided, SpentS: s.spent.Seconds(), BudgetS: s.o.Budget.Seconds(), Steps: s.steps}
	if out.Steps == nil {
		out.Steps = []result.CapacityStep{}
	}
	if s.lo > 0 && s.hi > 0 {
		out.PrecisionPct = s.gapPct()
	}
	out.MaxProducers, out.FailProducers = s.units(s.lo), s.units(s.hi)
	for i := len(s.steps) - 1; i >= 0 && s.hi > 0; i-- {
		if st := s.steps[i]; st.OfferedRPS == s.hi && !st.Pass {
			out.BrokenBy, out.LimitedBy = st.Decided, st.Cause
			break
		}
	}
	if out.LimitedBy == result.CauseGenerator {
		out.Advice = fmt.Sprintf("the generator, not the target, limits at %s/s on this machine: add shards (vesload kube)", format.Num(s.hi))
	}
	return out
}

// units is rate in whole quanta (producers), 0 without a quantum.
func (s *search) units(rate float64) int {
	if q := s.o.Quantum; q > 0 {
		return int(math.Round(rate / q))
	}
	return 0
}

// roundRate writes a rate as a person would: whole requests a second
// above 10/s, a tenth below.
func roundRate(r float64) float64 {
	if r >= 10 {
		return math.Round(r)
	}
	return math.Round(r*10) / 10
}
