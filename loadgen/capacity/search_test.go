package capacity

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// model is a fake step runner: a target that holds capacity requests a
// second (above it, the excess fails and latency climbs), behind a
// generator that can offer at most genLimit (0: no limit). noisy lists the
// runs (1-based) of a rate that fail whatever the rate. Each step takes
// step, or early when it fails and the model stops failing steps early.
type model struct {
	capacity, genLimit float64
	noisy              map[float64][]int
	step, early        time.Duration
	runs               map[float64]int
	offered            []float64
}

func (m *model) run(_ context.Context, rate float64) (StepResult, error) {
	if m.runs == nil {
		m.runs = map[float64]int{}
	}
	m.runs[rate]++
	m.offered = append(m.offered, rate)
	secs := 10.0
	sent := rate
	health := Health{Pool: 64}
	if m.genLimit > 0 && rate > m.genLimit {
		sent = m.genLimit
		health.Saturated, health.DispatchLagP99Ms = true, 880 // the late requests below
	}
	n := int64(sent * secs)
	w := &result.Result{Requests: result.Requests{Scheduled: n, Sent: n, OK: n},
		Latency: result.Summary{Count: n, P50: 8, P99: 40}, Service: result.Summary{Count: n, Avg: 8}}
	w.RPS.Achieved = sent
	switch {
	case health.Saturated:
		w.Latency.P99 = 900 // late requests: latency from the due time
	case rate > m.capacity:
		bad := int64((rate - m.capacity) * secs)
		w.Requests.OK, w.Requests.Errors = n-bad, bad
		w.Latency.P99 = 300
	}
	for _, k := range m.noisy[rate] {
		if k == m.runs[rate] {
			w.Latency.P99 = 2000
		}
	}
	took := m.step
	if m.early > 0 && (w.Requests.Errors > 0 || w.Latency.P99 > 500) {
		return StepResult{Window: w, Took: m.early, StoppedEarly: true, Generator: health}, nil
	}
	return StepResult{Window: w, Took: took, Generator: health}, nil
}

func slos(t *testing.T, exprs ...string) []threshold.Threshold {
	t.Helper()
	gates, err := threshold.ParseAll(exprs)
	if err != nil {
		t.Fatal(err)
	}
	return gates
}

func TestSearch(t *testing.T) {
	t.Parallel()
	step := 12 * time.Second
	base := func(t *testing.T) Options {
		return Options{Start: 50, Max: 100000, PrecisionPct: 5, Budget: 10 * time.Minute, Step: step,
			SLOs: slos(t, "p99<500ms", "error_rate<0.1%")}
	}
	cases := []struct {
		name   string
		m      model
		opts   func(*Options)
		lo, hi float64 // MaxRPS within [lo, hi]
		limit  string
		// undecided, when set, is a phrase the outcome must say.
		undecided string
		confirmed bool
		broken    string
	}{
		{name: "target of 800/s", m: model{capacity: 800}, lo: 760, hi: 800, limit: result.CauseTarget, confirmed: true, broken: "error_rate<0.1%"},
		{name: "target of 800/s to 1 %", m: model{capacity: 800}, opts: func(o *Options) { o.PrecisionPct = 1; o.Budget = time.Hour },
			lo: 792, hi: 800, limit: result.CauseTarget, confirmed: true},
		{name: "a noisy step in the climb", m: model{capacity: 800, noisy: map[float64][]int{400: {1}}},
			lo: 760, hi: 800, limit: result.CauseTarget, confirmed: true},
		{name: "a noisy confirmation of the highest pass", m: model{capacity: 800, noisy: map[float64][]int{800: {2}}},
			lo: 760, hi: 800, limit: result.CauseTarget, confirmed: true},
		{name: "the generator limits before the target", m: model{capacity: 5000, genLimit: 1000},
			lo: 950, hi: 1000, limit: result.CauseGenerator, confirmed: true, broken: "p99<500ms"},
		{name: "the first step fails", m: model{capacity: 30}, lo: 28.5, hi: 30, limit: result.CauseTarget, confirmed: true},
		{name: "nothing holds", m: model{capacity: 0.1}, lo: 0, hi: 0, limit: result.CauseTarget, undecided: "no step held"},
		{name: "holds up to the maximum", m: model{capacity: 10000}, opts: func(o *Options) { o.Max = 400 },
			lo: 400, hi: 400, undecided: "up to the maximum, 400/s"},
		{name: "a budget of three steps", m: model{capacity: 800}, opts: func(o *Options) { o.Budget = 3*step + step/2 },
			lo: 200, hi: 200, undecided: "while climbing"},
		{name: "a budget that ends the bisection", m: model{capacity: 800}, opts: func(o *Options) { o.Budget = 7 * step },
			lo: 600, hi: 800, limit: result.CauseTarget, undecided: "while bisecting"},
		{name: "steps longer than planned keep the budget", m: model{capacity: 800, step: 15 * time.Second},
			opts: func(o *Options) { o.Budget = 42 * time.Second }, lo: 100, hi: 100, undecided: "while climbing"},
		{name: "failing steps stopped early leave budget for more", m: model{capacity: 800, step: step, early: 3 * time.Second},
			opts: func(o *Options) { o.Budget = 11 * step }, lo: 760, hi: 800, limit: result.CauseTarget, confirmed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := base(t)
			if tc.opts != nil {
				tc.opts(&o)
			}
			m := tc.m
			if m.step == 0 {
				m.step = step
			}
			var seen []result.CapacityStep
			o.Progress = func(s result.CapacityStep) { seen = append(seen, s) }
			out, err := Search(context.Background(), m.run, o)
			if err != nil {
				t.Fatal(err)
			}
			if out.MaxRPS < tc.lo || out.MaxRPS > tc.hi {
				t.Errorf("max %g/s, want %g to %g (steps %v)", out.MaxRPS, tc.lo, tc.hi, m.offered)
			}
			if out.LimitedBy != tc.limit {
				t.Errorf("limited by %q, want %q", out.LimitedBy, tc.limit)
			}
			if out.Confirmed != tc.confirmed {
				t.Errorf("confirmed %v, want %v (steps %v)", out.Confirmed, tc.confirmed, m.offered)
			}
			if tc.undecided == "" && out.Undecided != "" || !strings.Contains(out.Undecided, tc.undecided) {
				t.Errorf("undecided %q, want %q", out.Undecided, tc.undecided)
			}
			if tc.broken != "" && !strings.HasPrefix(out.BrokenBy, tc.broken) {
				t.Errorf("broken by %q, want %s", out.BrokenBy, tc.broken)
			}
			if tc.confirmed && (out.PrecisionPct > o.PrecisionPct || out.FailRPS <= out.MaxRPS) {
				t.Errorf("precision %g%% (%g to %g), want within %g%%", out.PrecisionPct, out.MaxRPS, out.FailRPS, o.PrecisionPct)
			}
			if tc.limit == result.CauseGenerator && !strings.Contains(out.Advice, "add shards") {
				t.Errorf("advice %q: no word of shards", out.Advice)
			}
			t.Logf("steps %v: max %g, fail %g, spent %gs", m.offered, out.MaxRPS, out.FailRPS, out.SpentS)
			checkSteps(t, out, o, seen, m.offered)
		})
	}
}

// TestSearchInQuanta searches producers of 100 messages a second each
// against a target that holds 750/s: every rate tried is a whole number of
// producers, and the boundary ends one producer apart, confirmed.
func TestSearchInQuanta(t *testing.T) {
	t.Parallel()
	m := &model{capacity: 750, step: 12 * time.Second}
	out, err := Search(context.Background(), m.run, Options{Start: 230, Max: 5050, PrecisionPct: 5, Budget: time.Hour,
		Step: 12 * time.Second, SLOs: slos(t, "error_rate<0.1%"), Quantum: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.offered {
		if r != math.Round(r/100)*100 || r < 100 || r > 5000 {
			t.Errorf("rate %g tried: want whole producers of 100/s within [100, 5000]", r)
		}
	}
	if out.MaxProducers != 7 || out.FailProducers != 8 {
		t.Errorf("%d and %d producers, want 7 and 8", out.MaxProducers, out.FailProducers)
	}
	for _, st := range out.Steps {
		if st.Producers != int(st.OfferedRPS/100) {
			t.Errorf("step %d at %g/s: %d producers", st.N, st.OfferedRPS, st.Producers)
		}
	}
	if out.MaxRPS != 700 || out.FailRPS != 800 || !out.Confirmed || out.Undecided != "" || m.offered[0] != 200 {
		t.Errorf("steps %v: max %g, fail %g, confirmed %v, undecided %q; want 700 and 800 from 200, confirmed",
			m.offered, out.MaxRPS, out.FailRPS, out.Confirmed, out.Undecided)
	}
}

// checkSteps holds what every search keeps: the budget, the rates' range,
// one progress call per step, and a boundary confirmed by runs again.
func checkSteps(t *testing.T, out *result.Capacity, o Options, seen []result.CapacityStep, offered []float64) {
	t.Helper()
	if out.SpentS > o.Budget.Seconds() {
		t.Errorf("spent %gs of a %v budget", out.SpentS, o.Budget)
	}
	if len(seen) != len(out.Steps) || len(offered) != len(out.Steps) {
		t.Errorf("%d steps, %d seen by Progress, %d run", len(out.Steps), len(seen), len(offered))
	}
	for i, s := range out.Steps {
		if s.OfferedRPS > o.Max || s.N != i+1 {
			t.Errorf("step %d: %+v", i, s)
		}
		if !s.Pass && s.Cause == "" || s.Pass && s.Cause != "" || s.Decided == "" {
			t.Errorf("step %d: pass %v, cause %q, decided %q", i, s.Pass, s.Cause, s.Decided)
		}
	}
	if !out.Confirmed {
		return
	}
	runs := map[float64]int{}
	for _, r := range offered {
		runs[r]++
	}
	if runs[out.MaxRPS] < 2 || runs[out.FailRPS] < 2 {
		t.Errorf("boundary %g/%g run %d and %d times: want each run again", out.MaxRPS, out.FailRPS, runs[out.MaxRPS], runs[out.FailRPS])
	}
}

func TestSearchRefusesBadOptions(t *testing.T) {
	t.Parallel()
	good := Options{Start: 50, Max: 1000, PrecisionPct: 5, Budget: time.Minute, Step: 10 * time.Second, SLOs: slos(t, "p99<1s")}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"start 0", func(o *Options) { o.Start = 0 }, "start 0"},
		{"max below start", func(o *Options) { o.Max = 10 }, "max 10 is below start 50"},
		{"precision 0", func(o *Options) { o.PrecisionPct = 0 }, "precision 0%"},
		{"precision 80", func(o *Options) { o.PrecisionPct = 80 }, "precision 80%"},
		{"budget below a step", func(o *Options) { o.Budget = 5 * time.Second }, "shorter than one step"},
		{"no SLO", func(o *Options) { o.SLOs = nil }, "no SLO"},
	} {
		o := good
		tc.edit(&o)
		ran := false
		_, err := Search(context.Background(), func(context.Context, float64) (StepResult, error) {
			ran = true
			return StepResult{}, nil
		}, o)
		if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) || ran {
			t.Errorf("%s: error %v (usage %v), ran %v; want a usage error with %q before any step", tc.name, err, usage.Is(err), ran, tc.want)
		}
	}
}

func TestSearchStopsOnTheRunnersError(t *testing.T) {
	t.Parallel()
	boom := errors.New("target gone")
	m := &model{capacity: 800, step: time.Second}
	n := 0
	run := func(ctx context.Context, rate float64) (StepResult, error) {
		if n++; n == 3 {
			return StepResult{}, boom
		}
		return m.run(ctx, rate)
	}
	out, err := Search(context.Background(), run, Options{Start: 50, Max: 1e5, PrecisionPct: 5, Budget: time.Hour,
		Step: time.Second, SLOs: slos(t, "error_rate<0.1%")})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "step at 200/s") {
		t.Fatalf("error %v, want the runner's, naming the step", err)
	}
	if out == nil || len(out.Steps) != 2 || out.MaxRPS != 100 {
		t.Fatalf("outcome %+v, want the two steps before", out)
	}
}

func TestCause(t *testing.T) {
	t.Parallel()
	window := func(serviceMs float64) *result.Result {
		return &result.Result{Service: result.Summary{Count: 100, Avg: serviceMs}}
	}
	p99, errs, e2e := slos(t, "p99<100ms"), slos(t, "error_rate<0.1%"), slos(t, "e2e_p99<250ms")
	failed := func(value float64, unit string) []result.Threshold {
		return []result.Threshold{{Value: value, Unit: unit}}
	}
	// refusing is a fast target's window of n requests, of which it
	// answered refused with 503 and the pool had no connection for out.
	refusing := func(n, refused, out int64) *result.Result {
		w := window(0.2)
		w.Requests = result.Requests{Scheduled: n, Sent: n - out, OK: n - refused - out, Errors: refused + out}
		w.Errors = map[string]int64{"http_503": refused, result.ClassPoolExhausted: out}
		return w
	}
	for _, tc := range []struct {
		name  string
		rate  float64
		r     StepResult
		slos  []threshold.Threshold
		gates []result.Threshold
		want  string
	}{
		{"a slow target", 1000, StepResult{Window: window(300)}, p99, failed(400, "ms"), result.CauseTarget},
		{"a saturated generator", 1000, StepResult{Window: window(5), Generator: Health{Saturated: true, DispatchLagP99Ms: 300}}, p99, failed(310, "ms"), result.CauseGenerator},
		{"dispatch lag broke", 1000, StepResult{Window: window(5), Generator: Health{DispatchLagP99Ms: 120}}, p99, failed(125, "ms"), result.CauseGenerator},
		{"dispatch lag too small to explain", 1000, StepResult{Window: window(5), Generator: Health{DispatchLagP99Ms: 12}}, p99, failed(400, "ms"), result.CauseTarget},
		{"dispatch lag, errors failed", 1000, StepResult{Window: window(5), Generator: Health{DispatchLagP99Ms: 12}}, errs, failed(2, "%"), result.CauseTarget},
		{"travel time far over a few ms of lag", 1125, StepResult{Window: window(0.1), Generator: Health{Saturated: true, DispatchLagP99Ms: 13, Pool: 8}}, e2e, failed(370, "ms"), result.CauseTarget},
		{"pool out, target fast", 1000, StepResult{Window: window(5), Generator: Health{Pool: 64, PoolExhausted: 10}}, errs, failed(1, "%"), result.CauseGenerator},
		{"pool out, target slow", 1000, StepResult{Window: window(200), Generator: Health{Pool: 64, PoolExhausted: 10}}, errs, failed(1, "%"), result.CauseTarget},
		{"pool out, no answer at all", 1000, StepResult{Window: &result.Result{}, Generator: Health{Pool: 64, PoolExhausted: 10}}, errs, failed(100, "%"), result.CauseTarget},
		{"writes the collector blocks", 2000, StepResult{Window: window(800), Generator: Health{Saturated: true, DispatchLagP99Ms: 900, Pool: 8}}, p99, failed(1500, "ms"), result.CauseTarget},
		{"dispatch lag, pool idle", 2000, StepResult{Window: window(0.1), Generator: Health{Saturated: true, DispatchLagP99Ms: 400, Pool: 8}}, p99, failed(405, "ms"), result.CauseGenerator},
		{"no CPU left, answers slow", 40000, StepResult{Window: window(50), Generator: Health{Saturated: true, CPUSaturated: true, Pool: 100, PoolExhausted: 9}}, errs, failed(3, "%"), result.CauseGenerator},
		// A rate limit's 503s while the machine ran the generator late
		// (vesload capacity against nginx's limit_req of 1,000/s: a step
		// at 1,063/s, 5.9 % refused, lag p99 9.5 ms at 9 % CPU).
		{"the target refuses, the generator late", 1063, StepResult{Window: refusing(2126, 83, 23), Generator: Health{Saturated: true, DispatchLagP99Ms: 9.5, Pool: 64, PoolExhausted: 23}}, errs, failed(5.9, "%"), result.CauseTarget},
		{"the target refuses, the pool out", 1000, StepResult{Window: refusing(2000, 40, 10), Generator: Health{Pool: 64, PoolExhausted: 10}}, errs, failed(2.5, "%"), result.CauseTarget},
		{"a stray refusal, the generator late", 1000, StepResult{Window: refusing(2000, 1, 0), Generator: Health{DispatchLagP99Ms: 12}}, p99, failed(105, "ms"), result.CauseGenerator},
		{"the generator's own errors only", 1000, StepResult{Window: refusing(2000, 0, 50), Generator: Health{Saturated: true, Pool: 64, PoolExhausted: 50}}, errs, failed(2.5, "%"), result.CauseGenerator},
		// vesload on one core against nginx on the other (cmd/vesload's
		// TestCapacityLimitedByTheGenerator): at 75,000/s its answers read
		// 12 ms late, which by Little's law looks like a target holding
		// 900 of 1,024 connections, while its CPU read 87 % (a whole step
		// with its warm-up) and its goroutines waited 8 ms to run.
		{"the generator late to run, its CPU read low", 75000, StepResult{Window: window(12), Generator: Health{Saturated: true, DispatchLagP99Ms: 9.5, SchedP99Ms: 8, Pool: 1024, PoolExhausted: 16000}}, errs, failed(20, "%"), result.CauseGenerator},
		{"the target holds the pool, the generator runs on time", 75000, StepResult{Window: window(12), Generator: Health{Saturated: true, DispatchLagP99Ms: 9.5, SchedP99Ms: 0.2, Pool: 1024, PoolExhausted: 16000}}, errs, failed(20, "%"), result.CauseTarget},
		// A busy machine runs the generator a few milliseconds late while
		// the target holds each request 150 ms: the target's.
		{"a slow target, the generator a little late to run", 1000, StepResult{Window: window(150), Generator: Health{SchedP99Ms: 3, Pool: 64, PoolExhausted: 40}}, p99, failed(400, "ms"), result.CauseTarget},
		{"no answer, the generator late to run", 1000, StepResult{Window: &result.Result{}, Generator: Health{SchedP99Ms: 8, Pool: 64, PoolExhausted: 10}}, errs, failed(100, "%"), result.CauseTarget},
	} {
		if got := Cause(tc.rate, tc.r, tc.slos, tc.gates); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestClearly(t *testing.T) {
	t.Parallel()
	sofar := func(n, errs int64, p99 float64) *result.Result {
		return &result.Result{Requests: result.Requests{Scheduled: n, Sent: n, OK: n - errs, Errors: errs},
			Latency: result.Summary{Count: n, P50: p99 / 2, P99: p99}}
	}
	for _, tc := range []struct {
		name    string
		gates   []string
		sofar   *result.Result
		planned int64
		want    string
	}{
		{"too few requests yet", []string{"error_rate<0.1%"}, sofar(10, 10, 10), 1000, ""},
		{"errors past what the step allows", []string{"error_rate<0.1%"}, sofar(100, 2, 10), 1000, "error_rate<0.1%"},
		{"errors the rest could still dilute", []string{"error_rate<1%"}, sofar(100, 5, 10), 1000, ""},
		{"an error count", []string{"errors<1"}, sofar(100, 1, 10), 1000, "errors<1"},
		{"latency twice its limit", []string{"p99<500ms"}, sofar(100, 0, 1200), 1000, "p99<500ms"},
		{"latency over but not twice", []string{"p99<500ms"}, sofar(100, 0, 700), 1000, ""},
		{"passing", []string{"p99<500ms", "error_rate<0.1%"}, sofar(100, 0, 20), 1000, ""},
		{"a lower bound is never clear early", []string{"rps>1000"}, sofar(100, 0, 20), 1000, ""},
	} {
		g, failed := Clearly(slos(t, tc.gates...), tc.sofar, tc.planned)
		if failed != (tc.want != "") || failed && g.Expr != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.name, g.Expr, failed, tc.want)
		}
	}
}

func TestCheckSLOs(t *testing.T) {
	t.Parallel()
	hv, followed := Whole{HV: true}, Whole{HV: true, Receiver: true, Delivery: true}
	for _, tc := range []struct {
		slo   string
		whole Whole
		want  string // "" when a step can be judged by it
	}{
		{"p99<500ms", Whole{}, ""},
		{"error_rate<0.1%", Whole{}, ""},
		{"errors.http_503<1", Whole{}, ""},
		{"rps>100", Whole{}, ""},
		{"service_p99<50ms", Whole{}, ""},
		{"target_cpu_max<80%", Whole{}, "not measured per step"},
		{"dispatch_lag_p99<5ms", Whole{}, "not measured per step"},
		{"generator_cpu_max<90%", followed, "not measured per step"},
		{"delivery.lost<1", Whole{}, "not measured per step"},
		{"e2e_p99<1s", hv, "not measured per step"},
		{"hv.lost==0", hv, "not measured per step"},
		{"hv.written>0", Whole{}, "not measured per step"},
		{"hv.written>0", hv, ""},
		{"hv.lost==0", followed, ""},
		{"delivery.lost<1", followed, ""},
		{"e2e_p99<1s", followed, ""},
	} {
		err := CheckSLOs(slos(t, tc.slo), tc.whole)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s with %+v: %v, want %q", tc.slo, tc.whole, err, tc.want)
		}
	}
}

// TestWindowLeavesTheWarmUpOut feeds a window seconds of a slow warm-up
// and fast measured seconds: only the latter are judged, and a step whose
// measured errors break the SLO beyond doubt is stopped once.
func TestWindowLeavesTheWarmUpOut(t *testing.T) {
	t.Parallel()
	second := func(n int, errs int, lat time.Duration) *result.Tally {
		tl := result.NewTally()
		for i := range n {
			o := result.Outcome{Class: result.OutcomeOK, Latency: lat, Service: lat}
			if i < errs {
				o.Class = result.ClassTimeout
			}
			tl.Add(o)
		}
		return &tl
	}
	stops := 0
	w := NewWindow(2, 300, slos(t, "p99<500ms", "error_rate<1%"), func() { stops++ })
	w.Timeline(result.Second{T: 0, GenSchedP99Ms: 30}, second(100, 100, 2*time.Second))
	w.Timeline(result.Second{T: 1, GenSchedP99Ms: 30}, second(100, 0, 2*time.Second))
	w.Timeline(result.Second{T: 2, TargetCPUPct: 40, GenSchedP99Ms: 0.25}, second(100, 0, 10*time.Millisecond))
	r, stopped, cpu := w.Result()
	if r.Requests.Sent != 100 || r.Latency.P99 > 20 || stopped || stops != 0 || cpu == nil || *cpu != 40 || w.SchedP99Ms() != 0.25 {
		t.Fatalf("after the warm-up: sent %d, p99 %g, stopped %v (%d), cpu %v, wait to run %g ms; want 100 fast requests, not stopped, cpu 40, 0.25 ms",
			r.Requests.Sent, r.Latency.P99, stopped, stops, cpu, w.SchedP99Ms())
	}
	w.Timeline(result.Second{T: 3, GenSchedP99Ms: 0.75}, second(100, 10, 10*time.Millisecond))
	if got := w.SchedP99Ms(); got != 0.5 {
		t.Fatalf("wait to run %g ms over the measured seconds 0.25 and 0.75: want their mean, 0.5", got)
	}
	w.Timeline(result.Second{T: 4}, second(30, 3, 10*time.Millisecond))
	if _, stopped, _ := w.Result(); !stopped || stops != 1 {
		t.Fatalf("10 errors of 300 planned under error_rate<1%%: stopped %v, %d stops; want stopped once", stopped, stops)
	}
	// The second after the stop was cut short by it: left out.
	if r, _, _ := w.Result(); r.Requests.Sent != 200 || r.RPS.Achieved != 100 || stops != 1 {
		t.Fatalf("after the stop: sent %d, achieved %g/s, %d stops; want the 2 whole seconds' 200 at 100/s, one stop",
			r.Requests.Sent, r.RPS.Achieved, stops)
	}
}
