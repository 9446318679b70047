package engine

import (
	"context"
	"errors"
	"math"
	"runtime"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// ticker does the engine's once-a-second work on the wall clock: it reads
// the generator's CPU and the samplers, closes the final seconds of the
// timeline, publishes them with the live figures as one snapshot to every
// output's outlet, and takes checkpoints, which one writer goroutine
// turns into results in order. It holds the recorder's lock only to swap.
type ticker struct {
	e       *Engine
	started time.Time
	sec     int64 // the wall second now ending

	self     Sampler // the generator's own process, read on every tick; nil when it cannot be read
	cpuStats cpuStats
	lastRead time.Time // when self was last read; zero before the first reading, taken at the start
	// shown is the CPU of the last reading over at least minMaxInterval:
	// what a second whose own reading was shorter shows (see readSelf).
	shown  float64
	target *sampling

	last struct{ sent, attempted int64 }
	// spare is swapped with the recorder's live histogram every second,
	// so that the wall second's latencies are read outside the lock.
	spare *hdrhistogram.Histogram
	// win keeps the latencies of the last LiveWindow seconds, one
	// histogram a second, and winSum their sum: the live percentiles,
	// over which a stall stays visible for as long as the window. They
	// are sparse: a second is copied in with one walk of its counts and
	// the sum adds only the populated buckets, where dense histograms
	// walked every bucket up to the largest value eleven times a second.
	win    [LiveWindow]*hdrhistogram.PackedHistogram
	winSum *hdrhistogram.PackedHistogram

	// led holds the counts handed over at each checkpoint, and at the
	// end the final ones, outside the recorder's lock.
	led *ledger

	ckpt     chan checkpoint // to the checkpoint writer; nil without checkpoints
	ckptDone chan struct{}
	every    int64 // checkpoint every this many seconds

	quit chan struct{}
	done chan struct{}
}

// checkpoint is a consistent snapshot on its way to the writer.
type checkpoint struct {
	t   tallies
	cpu cpuStats
	at  time.Time
}

// selfSampler is the sampler of the generator's own process: the
// configured one, or a new one (primed, so the first second has a CPU
// figure); nil when the process cannot be read, and the result then has
// no generator CPU.
func (e *Engine) selfSampler() Sampler {
	if e.cfg.Generator != nil {
		return e.cfg.Generator
	}
	s, err := sample.NewSelf()
	if err != nil {
		return nil
	}
	return s
}

func (e *Engine) newTicker(start time.Time, self Sampler) *ticker {
	checkpoints := e.cfg.CheckpointEvery > 0 && len(e.outs) > 0
	t := &ticker{e: e, started: start, self: self, spare: result.NewHistogram(), quit: make(chan struct{}), done: make(chan struct{}),
		led: newLedger(len(e.kinds), e.facts.steps, checkpoints)}
	t.initWindow()
	// The run's CPU is measured from its start: whatever the set-up used
	// (connections, preflight, waiting for other shards) is not the run's.
	t.readSelf(start)
	if s := e.cfg.Target; s != nil {
		t.target = startSampling(s)
	}
	if checkpoints {
		t.every = max(int64(e.cfg.CheckpointEvery/time.Second), 1)
		t.ckpt = make(chan checkpoint, 1)
		t.ckptDone = make(chan struct{})
		go t.writeCheckpoints()
	}
	return t
}

// loop ticks at every whole second of the run until stop.
func (t *ticker) loop() {
	defer close(t.done)
	clock := t.e.clock
	timer := clock.NewTimer(t.started.Add(time.Second).Sub(clock.Now()))
	defer timer.Stop()
	for {
		select {
		case <-timer.C():
			// The time it runs, not the time the timer fired: the CPU
			// read now is measured up to now.
			t.tick(clock.Now())
			timer.Reset(t.started.Add(time.Duration(t.sec+1) * time.Second).Sub(clock.Now()))
		case <-t.quit:
			return
		}
	}
}

// stop ends the loop, the samplers and the checkpoint writer, in that
// order, so that no checkpoint follows the final result.
func (t *ticker) stop() {
	close(t.quit)
	<-t.done
	cpu, _ := t.readSelf(t.e.clock.Now())
	t.e.tl.reading(t.sec, cpu, nil) // the last, partial second
	if t.target != nil {
		t.target.stop()
	}
	if t.ckpt != nil {
		close(t.ckpt)
		<-t.ckptDone
	}
}

// tick is the work of one wall second.
func (t *ticker) tick(now time.Time) {
	cpu, gen := t.readSelf(now)
	var tgt *Reading
	if t.target != nil {
		tgt = t.target.latest()
	}
	var use usageReading
	if gen != nil {
		use.rssBytes, use.schedP99Ms = gen.RSSBytes, gen.SchedP99Ms
	}
	t.e.tl.reading(t.sec, cpu, tgt)
	h := t.hold(t.ckpt != nil && (t.sec+1)%t.every == 0)
	// The second's peak: what the answered requests saw when they were
	// sent, or what is in flight now when nothing was answered (a frozen
	// target). A sample at the tick alone falls between a request's end
	// and the next one's start, where a full pool looks half empty.
	use.inFlight = max(h.flight, t.e.c.inFlight.Load())
	t.e.tl.used(t.sec, use)
	t.e.tl.settle(h.seconds)
	r := t.e.rec
	run := h.run
	if s := t.led.sum; s != nil {
		run.add(&s.run)
	}
	var snap *checkpoint
	if h.delta != nil {
		snap = t.checkpoint(&h, now)
	}
	t.e.outs.publish(&tick{live: t.progress(now, cpu, tgt, gen, run), seconds: h.seconds, pool: r.tl.pool})
	if snap != nil {
		// The writer takes one snapshot at a time; while it is busy a
		// newer snapshot replaces the one waiting.
		select {
		case <-t.ckpt:
		default:
		}
		t.ckpt <- *snap
	}
	t.sec++
}

// held is what a tick takes under the recorder's lock: the seconds it
// closes, the most requests in flight at once during the second, the
// run's live figures since the last swap and, at a checkpoint, the counts
// the swap handed over.
type held struct {
	seconds   []closedSecond
	flight    int64
	run       liveRun
	delta     *counts
	maxFlight int64
}

// hold is the tick's work under the recorder's lock, when ckpt is set a
// checkpoint's: nothing in it copies a Tally or walks a histogram.
func (t *ticker) hold(ckpt bool) (h held) {
	r := t.e.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	h.flight, r.secondFlight = r.secondFlight, 0
	h.seconds = r.closeSeconds(false)
	h.run = liveRun{ok: r.cur.run.OK, errors: r.cur.run.Errors, disconnected: r.cur.run.Classes[result.ClassDisconnected], bytesSent: r.cur.run.BytesSent}
	r.live, t.spare = t.spare, r.live
	if ckpt {
		h.delta, h.maxFlight = r.swap(t.led)
	}
	return h
}

// checkpoint builds, outside the lock and once h's seconds are settled,
// the checkpoint of what h swapped out: the counts since the last one
// join the ledger, and the checkpoint gets a copy of its sum, since the
// ledger goes on adding.
func (t *ticker) checkpoint(h *held, now time.Time) *checkpoint {
	t.led.take(h.delta, true)
	return &checkpoint{t: t.led.tallies(t.led.sum.clone(), t.e.tl.view(h.maxFlight)), cpu: t.cpuStats, at: now}
}

// liveRun is what the live view reads of the run's tally: the counts
// since the last swap, read under the recorder's lock, to which the
// ledger's sum is added after it.
type liveRun struct{ ok, errors, disconnected, bytesSent int64 }

// add adds what the live view reads of t, the ledger's sum.
func (l *liveRun) add(t *result.Tally) {
	l.ok += t.OK
	l.errors += t.Errors
	l.disconnected += t.Classes[result.ClassDisconnected]
	l.bytesSent += t.BytesSent
}

// progress builds the live view of the wall second now ending, outside
// the recorder's lock: a new one every second, since every output reads
// it on its own goroutine.
func (t *ticker) progress(now time.Time, cpu float64, tgt, gen *Reading, run liveRun) *Progress {
	c, lag := &t.e.c, t.e.lag
	sent, att := c.sent.Load(), c.attempted.Load()
	p := &Progress{
		Elapsed: now.Sub(t.started), Total: t.e.cfg.Load.Span(),
		Scheduled: att, Sent: sent, OK: run.ok, Errors: run.errors,
		PoolExhausted: c.exhausted.Load(), InFlight: c.inFlight.Load(),
		Disconnected: run.disconnected, BytesSent: run.bytesSent,
		RPS: float64(sent - t.last.sent), TargetRPS: t.targetRate(now, att),
		LagMax:       time.Duration(lag.maxUs.Swap(0)) * time.Microsecond,
		LagP50:       time.Duration(lag.p50Us.Load()) * time.Microsecond,
		LagP99:       time.Duration(lag.p99Us.Load()) * time.Microsecond,
		GeneratorCPU: cpu, Target: tgt, Generator: gen,
	}
	if rest := t.e.facts.total - att; rest > 0 && t.e.facts.total > 0 {
		if t.e.dispatched.Load() {
			p.NotSent = rest
		} else {
			p.NotYetDue = rest
		}
	}
	t.slide(t.spare)
	t.spare.Reset()
	if t.winSum.TotalCount() > 0 {
		p.P50 = time.Duration(t.winSum.ValueAtPercentile(50)) * time.Microsecond
		p.P99 = time.Duration(t.winSum.ValueAtPercentile(99)) * time.Microsecond
	}
	t.last.sent, t.last.attempted = sent, att
	return p
}

// LiveWindow is how many seconds the live percentiles cover: long enough
// that a stall of a few seconds stays in view after it ends, short enough
// to follow a change of the target.
const LiveWindow = 10

// liveSigFigs is the precision of the live window's histograms: two
// significant digits (1 %) are plenty for a progress line, and the eleven
// histograms then take about a tenth of the memory that the result's
// three-digit geometry would (under 0.3 MB instead of about 2 MB of heap
// that every run would carry).
const liveSigFigs = 2

// initWindow makes the histograms of the live window.
func (t *ticker) initWindow() {
	for i := range t.win {
		t.win[i] = hdrhistogram.NewPacked(result.HistogramLowestUs, result.HistogramHighestUs, liveSigFigs)
	}
	t.winSum = hdrhistogram.NewPacked(result.HistogramLowestUs, result.HistogramHighestUs, liveSigFigs)
}

// slide moves the live window on by one second whose latencies are sec.
func (t *ticker) slide(sec *hdrhistogram.Histogram) {
	oldest := t.win[t.sec%LiveWindow]
	oldest.Reset()
	oldest.MergeFrom(sec)
	t.winSum.Reset()
	for _, h := range t.win {
		t.winSum.Merge(h)
	}
}

// targetRate is the rate the live view names as the target: the open
// model's schedule's own rate now, steady where it is constant; a closed
// model, which has no rate, shows the requests that became due in the
// last second.
func (t *ticker) targetRate(now time.Time, attempted int64) float64 {
	if s, ok := t.e.cfg.Load.(*Schedule); ok {
		return s.RateAt(min(now.Sub(t.started), s.Span()-1))
	}
	return float64(attempted - t.last.attempted)
}

// writeCheckpoints is the one checkpoint writer: it builds each snapshot's
// result and hands it to the observers, one at a time, in order.
func (t *ticker) writeCheckpoints() {
	defer close(t.ckptDone)
	for c := range t.ckpt {
		res := t.e.assemble(c.t, c.cpu, t.target, t.started, c.at, true, false)
		res.Warnings = append(res.Warnings, "checkpoint of a run in progress")
		t.e.outs.offer(res)
	}
}

// result is the final result of the run.
func (t *ticker) result(final tallies, ended time.Time, interrupted, done bool) *result.Result {
	return t.e.assemble(final, t.cpuStats, t.target, t.started, ended, interrupted, done)
}

// cpuStats summarises the generator's readings: its CPU, and the peaks of
// its memory as sampled once a second.
type cpuStats struct {
	// busy and wall are the CPU seconds used and the wall seconds they
	// were measured over: the average is their ratio, each reading
	// weighed by its interval, so that the run's last, partial second (a
	// few milliseconds) counts for what it lasted, not as a second of its
	// own.
	busy, wall float64
	// max is the highest CPU of a reading over at least minMaxInterval:
	// the highest a second of the timeline shows.
	max float64
	// rss, anon and heap are the highest resident memory, anonymous
	// resident memory and Go heap in use of any reading.
	rss, anon, heap int64
}

// minMaxInterval is the shortest reading that may set the peak CPU: a
// reading over a few milliseconds shows a burst, not a load (and where
// CPU time is counted in clock ticks of 10 ms, several cores' worth of
// one tick).
const minMaxInterval = 500 * time.Millisecond

// add folds in r, a reading over the last dt. A reading beyond what the
// cores can give (an interval measured short) is clamped to them; the
// caller shows the clamped figure (see readSelf).
func (s *cpuStats) add(r *Reading, dt time.Duration) {
	r.CPUPct = math.Min(r.CPUPct, cpuCeiling())
	if !r.NoCPU && dt > 0 {
		s.busy += r.CPUPct / 100 * dt.Seconds()
		s.wall += dt.Seconds()
		if dt >= minMaxInterval {
			s.max = math.Max(s.max, r.CPUPct)
		}
	}
	s.rss = max(s.rss, r.RSSBytes)
	s.anon = max(s.anon, r.AnonBytes)
	s.heap = max(s.heap, r.GoHeapBytes)
}

// avg is the average CPU over the readings, 100 = one core.
func (s *cpuStats) avg() float64 {
	if s.wall <= 0 {
		return 0
	}
	return s.busy / s.wall * 100
}

// readSelf reads the generator's own process, the one meter of its CPU
// (100 = one core) and memory, and adds the reading to the run's figures.
// The reading is nil when the process could not be read.
func (t *ticker) readSelf(now time.Time) (cpu float64, r *Reading) {
	if t.self == nil {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	rd, err := t.self.Sample(ctx, now)
	if err != nil && !errors.Is(err, sample.ErrPartial) {
		return 0, nil
	}
	// The sampler measured since its previous reading; the first, taken
	// at the start, only sets where the run's CPU is counted from.
	if t.lastRead.IsZero() {
		t.lastRead = t.started
	}
	dt := now.Sub(t.lastRead)
	t.cpuStats.add(&rd, dt)
	t.lastRead = now
	// A second shows the CPU of a reading long enough to set the peak,
	// so that the chart and the summary's max are one series: a reading
	// of a few milliseconds (the ticks that catch up after the machine
	// stalled, the run's last, partial second) shows a burst, not a load,
	// and its second shows the last reading that was long enough. Its
	// CPU still counts in the average, weighed by its interval.
	if !rd.NoCPU && dt >= minMaxInterval {
		t.shown = rd.CPUPct
	}
	if !rd.NoCPU {
		cpu = t.shown
	}
	return cpu, &rd
}

// cpuCeiling is the most CPU the process can use, 100 per core it may
// run on.
func cpuCeiling() float64 { return 100 * float64(runtime.NumCPU()) }
