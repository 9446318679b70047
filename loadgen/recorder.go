package loadgen

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// record is what one request's fate looks like to the recorder.
type record struct {
	seq     int64
	flight  int64 // requests in flight when this one was sent, itself included
	kind    uint8
	step    uint16
	dueNs   int64 // due time, from the start of the run
	latency int64 // ns from due time to response
	service int64 // ns from hand-over to response
	sent    int64 // body bytes out
	recv    int64 // body bytes in
	code    int32
	class   class
	served  bool   // it went to a connection (not pool_exhausted)
	msgID   string // messageId of a VES error body
}

// maxTimeline bounds the per-second timeline (a day of seconds), so that
// memory does not grow without limit on endless runs.
const maxTimeline = 86400

// recorder owns every histogram and counter of a run. Workers and the
// dispatcher record under mu; its loop closes each second under mu too;
// Run reads the state after the loop has ended.
type recorder struct {
	mu      *sync.Mutex // shared by copies taken for checkpoints; see snapshot
	e       *Engine
	started time.Time

	latency, service *hdrhistogram.Histogram
	second           *hdrhistogram.Histogram // latency of the current second

	classes   [numClasses]int64
	codes     map[int32]int64
	msgIDs    map[string]int64
	completed int64 // records of requests that went to a connection
	ok        int64
	errs      int64
	bytesOut  int64
	bytesIn   int64
	maxFlight int64

	// the current second
	secT       int64
	secOK      int64
	secErrs    int64
	secClasses map[string]int64
	lastSent   int64
	lastAtt    int64
	lastExh    int64
	timeline   []result.Second
	truncated  bool

	cpu      cpuMeter
	cpuAvg   float64
	cpuMax   float64
	cpuCount int

	target    *sampling
	generator *sampling

	kinds   []kindStats // per request kind, when there is a mix
	steps   []stepStats // per closed-model step
	secSent int64       // payload bytes sent in the current second

	finishCh chan struct{}
	finished bool // the loop has ended: every histogram is final
}

// kindStats is one request kind's share of a mixed run.
type kindStats struct {
	latency, service *hdrhistogram.Histogram
	sent, ok, errs   int64
	errors           map[string]int64
}

// stepStats is one closed-model step.
type stepStats struct {
	latency        *hdrhistogram.Histogram
	sent, ok, errs int64
}

func newRecorder(e *Engine) *recorder {
	r := &recorder{
		mu:         new(sync.Mutex),
		e:          e,
		latency:    result.NewHistogram(),
		service:    result.NewHistogram(),
		second:     result.NewHistogram(),
		codes:      map[int32]int64{},
		msgIDs:     map[string]int64{},
		secClasses: map[string]int64{},
		finishCh:   make(chan struct{}),
	}
	if c := e.cfg.Closed; c != nil {
		r.steps = make([]stepStats, len(c.Concurrency))
		for i := range r.steps {
			r.steps[i].latency = result.NewHistogram()
		}
	}
	if len(e.kinds) > 1 {
		r.kinds = make([]kindStats, len(e.kinds))
		for i := range r.kinds {
			r.kinds[i] = kindStats{latency: result.NewHistogram(), service: result.NewHistogram(), errors: map[string]int64{}}
		}
	}
	return r
}

func (r *recorder) start(t time.Time) {
	r.started = t
	r.cpu.reset()
	if s := r.e.cfg.Hooks.Target; s != nil {
		r.target = startSampling(s)
	}
	if s := r.e.cfg.Hooks.Generator; s != nil {
		r.generator = startSampling(s)
	}
}

// finish tells the loop to drain what is queued and stop.
func (r *recorder) finish() { close(r.finishCh) }

// loop closes a second of the timeline at every whole second of the run
// until finish is called.
func (r *recorder) loop() {
	tick := time.NewTimer(time.Until(r.started.Add(time.Second)))
	defer tick.Stop()
	for {
		select {
		case now := <-tick.C:
			r.mu.Lock()
			r.closeSecond(now)
			next := r.started.Add(time.Duration(r.secT+1) * time.Second)
			r.mu.Unlock()
			tick.Reset(time.Until(next))
		case <-r.finishCh:
			r.stopSampling()
			r.mu.Lock()
			r.closeSecond(time.Now())
			r.finished = true
			r.mu.Unlock()
			return
		}
	}
}

// snapshot copies the recorder's state for a checkpoint. The copy shares
// nothing it could change with the live recorder.
func (r *recorder) snapshot() *recorder {
	c := *r
	c.latency, c.service = r.latency.Clone(), r.service.Clone()
	c.codes, c.msgIDs = maps.Clone(r.codes), maps.Clone(r.msgIDs)
	c.timeline = slices.Clone(r.timeline)
	c.kinds = slices.Clone(r.kinds)
	for i, k := range c.kinds {
		c.kinds[i].latency, c.kinds[i].service, c.kinds[i].errors = k.latency.Clone(), k.service.Clone(), maps.Clone(k.errors)
	}
	c.steps = slices.Clone(r.steps)
	for i, st := range c.steps {
		c.steps[i].latency = st.latency.Clone()
	}
	return &c
}

// record adds one request's fate. After an abort, stragglers are ignored:
// the result counts them as aborted.
func (r *recorder) record(rec record) {
	r.mu.Lock()
	if !r.finished {
		r.add(rec)
	}
	r.mu.Unlock()
}

func (r *recorder) add(rec record) {
	if rec.served {
		r.completed++
		r.bytesOut += rec.sent
		r.bytesIn += rec.recv
		lat := clampUs(rec.latency)
		r.latency.RecordValue(lat)
		r.service.RecordValue(clampUs(rec.service))
		r.second.RecordValue(lat)
		r.secSent += rec.sent
		if r.steps != nil {
			st := &r.steps[rec.step]
			st.sent++
			st.latency.RecordValue(lat)
			if rec.class == classOK {
				st.ok++
			} else {
				st.errs++
			}
		}
		if r.kinds != nil {
			k := &r.kinds[rec.kind]
			k.sent++
			k.latency.RecordValue(lat)
			k.service.RecordValue(clampUs(rec.service))
		}
		r.maxFlight = max(r.maxFlight, rec.flight)
	}
	r.classes[rec.class]++
	name := ""
	if rec.class == classOK {
		r.ok++
		r.secOK++
		name = "ok"
	} else {
		r.errs++
		r.secErrs++
		name = outcomeName(rec.class, int(rec.code))
		if rec.class == classHTTP {
			r.codes[rec.code]++
		}
		r.secClasses[name]++
		if rec.msgID != "" {
			r.msgIDs[rec.msgID]++
		}
	}
	if r.kinds != nil {
		k := &r.kinds[rec.kind]
		if rec.class == classOK {
			k.ok++
		} else {
			k.errs++
			k.errors[name]++
		}
	}
	if h := r.e.cfg.Hooks.Request; h != nil {
		h(RequestEvent{
			Seq:       rec.seq,
			Due:       r.started.Add(time.Duration(rec.dueNs)),
			Latency:   time.Duration(rec.latency),
			Service:   time.Duration(rec.service),
			Outcome:   name,
			Code:      int(rec.code),
			BytesSent: rec.sent,
			BytesRecv: rec.recv,
			MessageID: rec.msgID,
		})
	}
}

func clampUs(ns int64) int64 {
	us := (ns + 500) / 1000
	return min(max(us, result.HistogramLowestUs), result.HistogramHighestUs)
}

// closeSecond ends the current second of the timeline and reports it.
func (r *recorder) closeSecond(now time.Time) {
	sent, att, exh := r.e.sent.Load(), r.e.attempted.Load(), r.e.exhausted.Load()
	cpu := r.cpu.sample(now)
	r.cpuAvg += cpu
	r.cpuMax = math.Max(r.cpuMax, cpu)
	r.cpuCount++
	s := r.secondEntry(sent-r.lastSent, att-r.lastAtt, exh-r.lastExh, cpu)
	var tgt, gen *Reading
	if r.target != nil {
		if tgt = r.target.latest(); tgt != nil {
			s.TargetCPUPct = round2(tgt.CPUPct)
			s.TargetRSSBytes = tgt.RSSBytes
		}
	}
	if r.generator != nil {
		gen = r.generator.latest()
	}
	if len(r.timeline) < maxTimeline {
		r.timeline = append(r.timeline, s)
	} else {
		r.truncated = true
	}
	if h := r.e.cfg.Hooks.Second; h != nil {
		h(Progress{
			Elapsed: now.Sub(r.started), Total: r.e.span(),
			Scheduled: att, Sent: sent, OK: r.ok, Errors: r.errs, PoolExhausted: exh,
			InFlight: r.e.inFlight.Load(), RPS: float64(s.Sent), TargetRPS: float64(s.Scheduled),
			P50:          time.Duration(s.P50Ms * float64(time.Millisecond)),
			P99:          time.Duration(s.P99Ms * float64(time.Millisecond)),
			LagMax:       time.Duration(r.e.lagMaxUs.Swap(0)) * time.Microsecond,
			LagP50:       time.Duration(r.e.lagP50Us.Load()) * time.Microsecond,
			LagP99:       time.Duration(r.e.lagP99Us.Load()) * time.Microsecond,
			GeneratorCPU: cpu, Target: tgt, Generator: gen, Last: s,
		})
	}
	r.checkpoint(now)
	if h := r.e.cfg.Hooks.Interval; h != nil {
		h(r.started.Add(time.Duration(r.secT)*time.Second), now, r.second)
	}
	r.second.Reset()
	r.secOK, r.secErrs, r.secSent = 0, 0, 0
	r.lastSent, r.lastAtt, r.lastExh = sent, att, exh
	r.secT++
}

// secondEntry is the timeline entry of the second now ending.
func (r *recorder) secondEntry(sent, scheduled, exhausted int64, cpu float64) result.Second {
	s := result.Second{
		T:             r.secT,
		Scheduled:     scheduled,
		Sent:          sent,
		OK:            r.secOK,
		Errors:        r.secErrs,
		PoolExhausted: exhausted,
		GenCPUPct:     round2(cpu),
		BytesSent:     r.secSent,
	}
	if c := r.e.cfg.Closed; c != nil {
		s.Concurrency = c.Concurrency[r.e.step.Load()]
	}
	if r.second.TotalCount() > 0 {
		s.P50Ms = float64(r.second.ValueAtQuantile(50)) / 1000
		s.P99Ms = float64(r.second.ValueAtQuantile(99)) / 1000
		s.MaxMs = float64(r.second.Max()) / 1000
	}
	if len(r.secClasses) > 0 {
		s.ErrorsByClass = r.secClasses
		r.secClasses = map[string]int64{}
	}
	return s
}

// checkpoint hands a snapshot of the result to the Checkpoint hook every
// CheckpointEvery. Encoding histograms takes milliseconds, so it happens
// on a copy, in another goroutine, outside the lock requests are recorded
// under.
func (r *recorder) checkpoint(now time.Time) {
	h := r.e.cfg.Hooks.Checkpoint
	if h == nil || r.e.cfg.CheckpointEvery <= 0 {
		return
	}
	if every := max(int64(r.e.cfg.CheckpointEvery/time.Second), 1); (r.secT+1)%every != 0 {
		return
	}
	snap := r.snapshot()
	go func() {
		res := snap.result(now, true)
		res.Warnings = append(res.Warnings, "checkpoint of a run in progress")
		h(res)
	}()
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// cpuMeter measures the generator's own CPU use from getrusage, which is
// cheap enough to call every second.
type cpuMeter struct {
	last    time.Time
	lastCPU time.Duration
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

func (m *cpuMeter) reset() { m.last, m.lastCPU = time.Now(), processCPU() }

// sample returns the CPU share since the last call, 100 = one core.
func (m *cpuMeter) sample(now time.Time) float64 {
	c := processCPU()
	wall := now.Sub(m.last)
	pct := 0.0
	if wall > 0 {
		pct = 100 * float64(c-m.lastCPU) / float64(wall)
	}
	m.last, m.lastCPU = now, c
	return pct
}

// result assembles the result document once the loop has ended.
func (r *recorder) result(ended time.Time, interrupted bool) *result.Result {
	e := r.e
	cfg := &e.cfg
	att, sent, exh := e.attempted.Load(), e.sent.Load(), e.exhausted.Load()
	total, target := att, 0.0 // a closed loop schedules what it sends
	if cfg.Schedule != nil {
		total, target = cfg.Schedule.Total(), cfg.Schedule.MeanRate()
	}
	res := &result.Result{
		Schema:      result.Schema,
		Started:     r.started.UTC(),
		Ended:       ended.UTC(),
		DurationS:   ended.Sub(r.started).Seconds(),
		Interrupted: interrupted,
		Requests: result.Requests{
			Scheduled: total,
			Sent:      sent,
			OK:        r.ok,
			NotSent:   total - att,
		},
		Errors:   map[string]int64{},
		RPS:      result.Rate{Target: target},
		Latency:  result.Summarize(r.latency),
		Service:  result.Summarize(r.service),
		Bytes:    result.Bytes{Sent: r.bytesOut, Received: r.bytesIn},
		Timeline: slices.Clone(r.timeline),
	}
	// Requests still in flight when an abort cut the drain short (or when
	// a checkpoint is taken) were sent but not answered: they count as
	// aborted errors.
	classes, errs := r.classes, r.errs
	if lost := sent - r.completed; lost > 0 {
		classes[classAborted] += lost
		errs += lost
	}
	res.Requests.Errors = errs
	for c := classTimeout; c < numClasses; c++ {
		if n := classes[c]; n > 0 {
			res.Errors[classNames[c]] = n
		}
	}
	for code, n := range r.codes {
		res.Errors[outcomeName(classHTTP, int(code))] = n
	}
	if exh != classes[classPoolExhausted] && exh > 0 {
		// Only a checkpoint sees this: refusals still queued for the recorder.
		res.Errors["pool_exhausted"] = exh
	}
	if len(r.msgIDs) > 0 {
		res.MessageIDs = maps.Clone(r.msgIDs)
	}
	// The achieved rate is over the schedule's span, or over the time the
	// run lasted when it was cut short.
	if span := e.span().Seconds(); interrupted && res.DurationS > 0 {
		res.RPS.Achieved = round2(float64(sent) / math.Min(res.DurationS, span))
	} else if span > 0 {
		res.RPS.Achieved = round2(float64(sent) / span)
	}
	res.Histograms.Latency, _ = result.EncodeHistogram(r.latency)
	res.Histograms.Service, _ = result.EncodeHistogram(r.service)
	res.Generator = r.generatorHealth(!interrupted || r.finished)
	res.ByRequest = r.byRequest()
	res.Steps = r.stepResults()
	if r.target != nil {
		res.Target = r.target.agg.Target()
		res.Target.CPUAvgPct = round2(res.Target.CPUAvgPct)
		res.Target.CPUMaxPct = round2(res.Target.CPUMaxPct)
	}
	if r.truncated {
		res.Warnings = append(res.Warnings, "timeline truncated at one day of seconds")
	}
	if res.Generator.Saturated {
		res.Warnings = append(res.Warnings, saturationWarning(res.Generator))
	}
	sort.Strings(res.Warnings)
	return res
}

// saturatedLag is the dispatch-lag p99 beyond which the generator, not the
// target, limited the run: its latency figures then include its own delay.
const saturatedLag = 5 * time.Millisecond

// generatorHealth reads the dispatch lag over the whole run once the
// dispatcher has stopped (final); a checkpoint, taken while it runs, can
// only use the summary of the last second, since the dispatcher owns the
// run's lag histogram.
func (r *recorder) generatorHealth(final bool) result.Generator {
	lag := r.e.lag
	g := result.Generator{MaxInFlight: r.maxFlight, RSSMaxBytes: maxRSS()}
	if !final {
		g.DispatchLagP50Ms = float64(r.e.lagP50Us.Load()) / 1000
		g.DispatchLagP99Ms = float64(r.e.lagP99Us.Load()) / 1000
		lag = nil
	}
	if r.cpuCount > 0 {
		g.CPUAvgPct = round2(r.cpuAvg / float64(r.cpuCount))
		g.CPUMaxPct = round2(r.cpuMax)
	}
	if lag != nil && lag.TotalCount() > 0 {
		g.DispatchLagP50Ms = float64(lag.ValueAtQuantile(50)) / 1000
		g.DispatchLagP99Ms = float64(lag.ValueAtQuantile(99)) / 1000
		g.DispatchLagMaxMs = float64(lag.Max()) / 1000
	}
	// Saturated: it could not keep the schedule, or it used nearly all the
	// CPU it may run on, so that its own delays are in the figures.
	g.Saturated = g.DispatchLagP99Ms > float64(saturatedLag)/float64(time.Millisecond) ||
		g.CPUAvgPct >= saturatedCPU*float64(runtime.GOMAXPROCS(0))
	return g
}

// saturatedCPU is the average CPU share per usable core beyond which the
// generator counts as saturated.
const saturatedCPU = 90

func saturationWarning(g result.Generator) string {
	return fmt.Sprintf("generator saturated: dispatch lag p99 %.2f ms (limit %v), CPU %.0f%% of %d usable cores; "+
		"latency includes the generator's own delay", g.DispatchLagP99Ms, saturatedLag, g.CPUAvgPct, runtime.GOMAXPROCS(0))
}

// byRequest is the per-kind breakdown of a mixed run.
func (r *recorder) byRequest() []result.RequestStats {
	if r.kinds == nil {
		return nil
	}
	out := make([]result.RequestStats, len(r.kinds))
	for i, k := range r.kinds {
		out[i] = result.RequestStats{
			Name:     r.e.kinds[i].Name,
			Weight:   r.e.kinds[i].Weight,
			Requests: result.Requests{Sent: k.sent, OK: k.ok, Errors: k.errs},
			Latency:  result.Summarize(k.latency),
			Service:  result.Summarize(k.service),
		}
		if len(k.errors) > 0 {
			out[i].Errors = maps.Clone(k.errors)
		}
		out[i].Histogram, _ = result.EncodeHistogram(k.latency)
	}
	return out
}

// stepResults summarises each closed-model step.
func (r *recorder) stepResults() []result.Step {
	c := r.e.cfg.Closed
	if c == nil {
		return nil
	}
	out := make([]result.Step, len(r.steps))
	for i, st := range r.steps {
		out[i] = result.Step{
			Concurrency: c.Concurrency[i],
			StartS:      (time.Duration(i) * c.Step).Seconds(),
			DurationS:   c.Step.Seconds(),
			Sent:        st.sent,
			OK:          st.ok,
			Errors:      st.errs,
			RPS:         round2(float64(st.sent) / c.Step.Seconds()),
			Latency:     result.Summarize(st.latency),
		}
	}
	return out
}
