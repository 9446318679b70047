package engine

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// assemble builds a result document from a consistent copy of the tallies:
// the final one (done: every worker has stopped) or a checkpoint's.
//
// Requests the copy has no outcome for are accounted from the sent
// counter, read after the copy was taken: those sent are in flight, shown
// as such in a checkpoint and counted as aborted in the final result (an
// abort that cut the drain short), the rest as not sent. Every request the copy counts as sent was counted
// by the counter before it (see dispatcher.handOff), so the invariant
// scheduled = sent + pool_exhausted + not_sent holds for every snapshot.
func (e *Engine) assemble(t tallies, cpu cpuStats, target *sampling, started, ended time.Time, interrupted, done bool) *result.Result {
	run := t.run
	if inFlight := e.c.sent.Load() - run.Sent; done {
		run.AddAborted(inFlight)
	} else {
		run.AddInFlight(inFlight)
	}
	total := e.facts.total
	if total < 0 {
		total = run.Scheduled // a closed loop schedules what it sends
	}
	// While the schedule goes on, what is not due yet is not "not sent":
	// only a stop makes it so.
	notYetDue := int64(0)
	if !done && !e.dispatched.Load() {
		notYetDue = total - run.Scheduled
	} else {
		run.AddNotSent(total - run.Scheduled)
	}
	// One encoder for every histogram of the result: one compressor's
	// state, not one per histogram (see result.HistogramEncoder).
	var enc result.HistogramEncoder
	res := &result.Result{
		Schema:      result.Schema,
		Started:     started.UTC(),
		Ended:       ended.UTC(),
		DurationS:   ended.Sub(started).Seconds(),
		Interrupted: interrupted,
		RPS:         result.Rate{Target: e.facts.rate},
		Timeline:    t.timeline,
		ByRequest:   e.byRequest(&enc, t.kinds),
		Steps:       e.stepResults(&enc, t.steps),
	}
	// Encoding into memory cannot fail; were it to, the result would keep
	// its counts and summaries and lack a histogram.
	_ = run.Document(res, &enc)
	res.Requests.NotYetDue = notYetDue
	// The achieved rate is over the load's span, or over the time the run
	// lasted when it was cut short.
	if span := e.cfg.Load.Span().Seconds(); interrupted && res.DurationS > 0 {
		res.RPS.Achieved = round2(float64(run.Sent) / math.Min(res.DurationS, span))
	} else if span > 0 {
		res.RPS.Achieved = round2(float64(run.Sent) / span)
	}
	res.Generator = e.health(cpu, t.maxFlight, done)
	if target != nil {
		res.Target = target.agg.Target()
		res.Target.CPUAvgPct = round2(res.Target.CPUAvgPct)
		res.Target.CPUMaxPct = round2(res.Target.CPUMaxPct)
	}
	res.Warnings = e.warnings(res, t)
	if sec, ok := e.tr.(ResultSection); ok {
		sec.AddSection(res, done)
	}
	return res
}

// final is the engine's result, written here alone and in this order:
// the figures of the final tallies as every checkpoint has them
// (assemble, which the transport's own section ends: ResultSection), then
// what only the end of the run knows: what each output lost, the shard's
// part and its agreed start, the preflight. The session completes it
// (docs/ARCHITECTURE.md, "The result's one writer").
func (e *Engine) final(tk *ticker, t tallies, ended time.Time, interrupted bool, lost []result.OutputLoss, offset time.Duration) *result.Result {
	res := tk.result(t, ended, interrupted, true)
	res.Outputs = lost
	e.markShard(res, offset)
	res.Preflight = e.preflight
	return res
}

// ResultSection is a Transport that contributes a section of its own to
// the result: figures of its protocol the engine has no place for (HV-VES
// fills res.HV: per-producer counts, connection set-up times, reconnects,
// data rates). The engine calls it on every result it assembles, each
// checkpoint (final false, from the checkpoint writer while senders run)
// and the final one (final true, once every sender is done), after its
// own figures are in: the section may read them, such as the timeline's
// bytes per second, and must leave them as they are.
type ResultSection interface {
	AddSection(res *result.Result, final bool)
}

// warnings are the rolled-up notices of a run, sorted: what limited it,
// one cause chosen from the figures (limitFacts.cause), and what else it
// should know.
func (e *Engine) warnings(res *result.Result, t tallies) []string {
	var w []string
	if t.truncated {
		w = append(w, "timeline truncated at one day of seconds")
	}
	f := limitFacts{
		gen: res.Generator, cores: runtime.GOMAXPROCS(0),
		silent: t.silent, silentFrom: t.silentFrom,
		poolExhausted: res.Errors[result.ClassPoolExhausted], attempted: res.Attempted(),
		pool: e.cfg.Pool, poolWait: e.cfg.PoolWait,
	}
	if l := f.warning(); l != "" {
		w = append(w, l)
	}
	if r := refusedWarning(res.Timeline); r != "" {
		w = append(w, r)
	}
	if f := sample.FailedWarning(res.Target); f != "" {
		w = append(w, f)
	}
	slices.Sort(w)
	return w
}

// silenceWarn is the shortest silence of the target worth a warning.
const silenceWarn = time.Second

// poolWarning says that the connection pool, not the generator, limited
// the run.
func poolWarning(pe, attempted int64, pool int, wait time.Duration) string {
	return fmt.Sprintf("the pool was the limit: %d requests (%.1f%%) found none of the %d connections free within --pool-wait %v; "+
		"the target answered too slowly for this pool and rate (raise --pool or --pool-wait, or lower the rate)", pe, pct(pe, attempted), pool, wait)
}

// saturatedLag is the dispatch-lag p99 beyond which the generator, not the
// target, limited the run: its latency figures then include its own delay.
const saturatedLag = 5 * time.Millisecond

// saturatedCPU is the average CPU share per usable core beyond which the
// generator counts as saturated.
const saturatedCPU = 90

// health reads the dispatch lag over the whole run once the dispatcher has
// stopped (done); a checkpoint, taken while it runs, can only use the
// summary of the last second, since the dispatcher owns the run's lag
// histogram. Waiting for a connection and a silent target are never lag,
// so they never make the generator saturated.
func (e *Engine) health(cpu cpuStats, maxFlight int64, done bool) result.Generator {
	g := result.Generator{MaxInFlight: maxFlight, RSSMaxBytes: cpu.rss, RSSAnonMaxBytes: cpu.anon, GoHeapMaxBytes: cpu.heap}
	if cpu.wall > 0 {
		g.CPUAvgPct = round2(cpu.avg())
		g.CPUMaxPct = round2(cpu.max)
	}
	if lag := e.lag.run; done && lag.TotalCount() > 0 {
		g.DispatchLagP50Ms = float64(lag.ValueAtQuantile(50)) / 1000
		g.DispatchLagP99Ms = float64(lag.ValueAtQuantile(99)) / 1000
		g.DispatchLagMaxMs = float64(lag.ValueAtQuantile(100)) / 1000 // its Max, without walking every bucket
	} else if !done {
		g.DispatchLagP50Ms = float64(e.lag.p50Us.Load()) / 1000
		g.DispatchLagP99Ms = float64(e.lag.p99Us.Load()) / 1000
	}
	g.Saturated = Saturated(g)
	return g
}

// Saturated is the one rule that says the generator, not the target,
// limited a run, REST and HV-VES alike: it could not keep the schedule
// (dispatch lag p99 beyond saturatedLag), or it used nearly all the CPU it
// may run on, so that its own delays are in the figures.
func Saturated(g result.Generator) bool {
	return LagSaturated(g.DispatchLagP99Ms) || CPUSaturated(g)
}

// CPUSaturated reports whether the generator used nearly all the CPU it
// may run on: the CPU half of Saturated, which no target can cause (a
// late dispatcher can be a pool the target keeps busy).
func CPUSaturated(g result.Generator) bool {
	return g.CPUAvgPct >= saturatedCPU*float64(runtime.GOMAXPROCS(0))
}

// LagSaturated reports whether a dispatch-lag p99 (ms) is beyond the
// generator's line of saturation: the lag half of Saturated, for a caller
// that judges a part of a run (a capacity step) by its own lag.
func LagSaturated(p99Ms float64) bool {
	return p99Ms > float64(saturatedLag)/float64(time.Millisecond)
}

// saturationWarning says the generator was late, and whether its own work
// or the machine held it up, on cores usable cores.
func saturationWarning(g result.Generator, cores int) string {
	if g.CPUAvgPct < idleCPU {
		return fmt.Sprintf("generator saturated: dispatch lag p99 %.2f ms (limit %v) while it used %.0f%% CPU: "+
			"the machine did not run it on time (other work on the machine, a paused VM); latency includes that delay",
			g.DispatchLagP99Ms, saturatedLag, g.CPUAvgPct)
	}
	return fmt.Sprintf("generator saturated: dispatch lag p99 %.2f ms (limit %v), CPU %.0f%% of %d usable cores; "+
		"latency includes the generator's own delay", g.DispatchLagP99Ms, saturatedLag, g.CPUAvgPct, cores)
}

// idleCPU is the average CPU share (100 = one core) below which a late
// generator was not busy itself: something else held it up.
const idleCPU = 50

// byRequest is the per-kind breakdown of a mixed run. A kind that could
// not be encoded would keep its counts and lose only its histogram.
func (e *Engine) byRequest(enc *result.HistogramEncoder, kinds []result.Tally) []result.RequestStats {
	if kinds == nil {
		return nil
	}
	out := make([]result.RequestStats, len(kinds))
	for i := range kinds {
		out[i], _ = kinds[i].RequestStats(e.kinds[i].Name, e.kinds[i].Weight, enc)
	}
	return out
}

// stepResults summarises each closed-model step.
func (e *Engine) stepResults(enc *result.HistogramEncoder, steps []result.Tally) []result.Step {
	if steps == nil {
		return nil
	}
	out := make([]result.Step, len(steps))
	for i := range steps {
		out[i], _ = steps[i].Step(e.facts.step(i), enc)
	}
	return out
}
