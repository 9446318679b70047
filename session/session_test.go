package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/observe"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

// body is a request body of the test runs: its number.
type body struct{}

func (body) AppendBody(dst []byte, seq uint64, _ time.Time) []byte { return append(dst, '{', '}') }

// answering is a transport whose every request is answered 202 after
// delay, without a network; Close ends the answers still awaited, as
// closing a connection does.
type answering struct {
	delay  time.Duration
	closed chan struct{}
	once   sync.Once
	sent   atomic.Int64 // requests it was handed
}

func (*answering) Preflight(context.Context) error { return nil }
func (*answering) Warm(int)                        {}
func (a *answering) NewSender() (transport.Sender, func()) {
	return a, func() {}
}
func (a *answering) Close() { a.once.Do(func() { close(a.closed) }) }

// Send implements transport.Sender.
func (a *answering) Send(_ *transport.Request, o *transport.Outcome) {
	a.sent.Add(1)
	o.Written = time.Now()
	select {
	case <-time.After(a.delay):
		o.Class, o.Code = transport.OK, 202
	case <-a.closed:
		o.Class = transport.Reset
	}
	o.Done = time.Now()
}

// testPlan is a run of rps requests a second for d against an answering
// transport.
func testPlan(t *testing.T, rps float64, d, delay time.Duration) *scenario.Plan {
	t.Helper()
	sched, err := engine.Constant(rps, d)
	if err != nil {
		t.Fatal(err)
	}
	url := "tcp://127.0.0.1:1"
	return &scenario.Plan{URL: url, Label: "test", RunConfig: result.RunConfig{RunID: "r1", URL: url},
		Config: engine.Config{Load: sched, Body: body{}, Pool: 4, Timeout: 5 * time.Second,
			Transport: &answering{delay: delay, closed: make(chan struct{})}, NoPreflight: true}}
}

// lockedBuffer is a bytes.Buffer the live line and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestInterruptPhases checks what one signal does in each phase of a run
// after the run: while the result settles it ends the delivery
// follower's wait and marks nothing; while the outputs are written it
// ends a stuck write and marks the run interrupted.
func TestInterruptPhases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name            string
		phase           int32
		settleEnded     bool
		outputsEnded    bool
		wantInterrupted bool
	}{
		{"settling", phaseSettling, true, false, false},
		{"writing", phaseWriting, false, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var stderr lockedBuffer
			s, err := Start(testPlan(t, 10, time.Second, 0), Options{Stderr: &stderr, Quiet: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.phase.Store(c.phase)
			s.Interrupt()
			if got := s.settle.Err() != nil; got != c.settleEnded {
				t.Errorf("the follower's wait ended: %v, want %v", got, c.settleEnded)
			}
			if got := s.outputs.Err() != nil; got != c.outputsEnded {
				t.Errorf("the outputs' writes ended: %v, want %v", got, c.outputsEnded)
			}
			if c.outputsEnded && context.Cause(s.outputs).Error() != "interrupted" {
				t.Errorf("the outputs ended by %v, want the interruption", context.Cause(s.outputs))
			}
			if s.Interrupted() != c.wantInterrupted {
				t.Errorf("interrupted %v, want %v", s.Interrupted(), c.wantInterrupted)
			}
			if s.ctx.Err() != nil {
				t.Error("a signal after the run stopped the run's context")
			}
			if strings.Contains(stderr.String(), "stopping") {
				t.Errorf("stderr %q: a signal after the run announces a stop", stderr.String())
			}
		})
	}
}

// TestInterruptWhileRunning runs a test load and interrupts it once or
// twice: the first signal stops the schedule and drains (the result is
// interrupted, with every request accounted for), a second aborts the
// drain at once; both exit 130 with the result written.
func TestInterruptWhileRunning(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		signals int
		delay   time.Duration // each answer's
		within  time.Duration // the run ends this soon after the last signal
		// drained says every request is accounted for as sent or not
		// sent: an abort does not wait for the requests in flight.
		drained bool
	}{
		{"one signal drains", 1, 10 * time.Millisecond, 5 * time.Second, true},
		{"a second aborts", 2, 20 * time.Second, 5 * time.Second, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var stderr, stdout lockedBuffer
			out := filepath.Join(t.TempDir(), "r.json")
			plan := testPlan(t, 50, time.Minute, c.delay)
			tr := plan.Config.Transport.(*answering)
			s, err := Start(plan, Options{Stderr: &stderr, Quiet: true, Files: files.Set{Result: out}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			last := make(chan time.Time, 1)
			go func() {
				// The first signal comes once the run is under way (3
				// requests sent, within the pool of 4), a second once the
				// first has begun the drain.
				waitfor.True(time.Minute, 5*time.Millisecond, func() bool { return tr.sent.Load() >= 3 })
				var at time.Time
				for i := range c.signals {
					if i > 0 {
						waitfor.True(time.Minute, 5*time.Millisecond, func() bool {
							return strings.Contains(stderr.String(), "stopping: draining requests in flight")
						})
					}
					at = time.Now()
					s.Interrupt()
				}
				last <- at
			}()
			res, err := s.Run()
			took := time.Since(<-last)
			if err != nil {
				t.Fatal(err)
			}
			if took > c.within {
				t.Errorf("the run ended %v after the last signal, want within %v", took, c.within)
			}
			if !res.Interrupted || !s.Interrupted() {
				t.Errorf("result interrupted %v, session %v: want both", res.Interrupted, s.Interrupted())
			}
			if r := res.Requests; c.drained && r.Scheduled != r.Sent+r.NotSent {
				t.Errorf("requests %+v: scheduled is not sent + not sent", r)
			}
			code, err := s.Finish(res, &stdout)
			if err != nil || code != verdict.ExitInterrupted {
				t.Fatalf("exit %d err %v, want %d", code, err, verdict.ExitInterrupted)
			}
			if _, err := os.Stat(out); err != nil {
				t.Errorf("the result of an interrupted run: %v", err)
			}
			if !strings.Contains(stderr.String(), "stopping: draining requests in flight") {
				t.Errorf("stderr %q does not announce the stop", stderr.String())
			}
		})
	}
}

// A stream that fails costs only itself: the run and its result go on,
// the result names the stream with what it lost, the summary says so,
// and the run exits 1 once everything else is written.
func TestFailingStreamOnlyWarns(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fail a write on")
	}
	var stderr, stdout lockedBuffer
	out := filepath.Join(t.TempDir(), "r.json")
	plan := testPlan(t, 100, time.Second, 0)
	// A busy machine must not turn requests into pool_exhausted: this
	// test is about the stream, which must cost the run nothing.
	plan.Config.PoolWait = time.Second
	s, err := Start(plan, Options{Stderr: &stderr, Quiet: true,
		Files: files.Set{Result: out}, JTL: observe.Stream{Option: "--jtl", Path: "/dev/full"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	code, err := s.Finish(res, &stdout)
	if err != nil || code != 1 {
		t.Fatalf("exit %d err %v, want 1\nstderr: %s", code, err, stderr.String())
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "--jtl /dev/full" || res.Outputs[0].Error == "" {
		t.Errorf("outputs lost %+v, want --jtl /dev/full with its error", res.Outputs)
	}
	if !strings.Contains(stdout.String(), "Outputs incomplete: --jtl /dev/full") {
		t.Errorf("the summary does not say the JTL is incomplete:\n%s", stdout.String())
	}
	found := false
	for _, w := range res.Warnings {
		found = found || strings.Contains(w, "--jtl")
	}
	if !found {
		t.Errorf("warnings %q say nothing of the failed --jtl", res.Warnings)
	}
	if res.Requests.OK != 100 {
		t.Errorf("%d requests ok, want 100", res.Requests.OK)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the result beside a failed stream: %v", err)
	}
}

// An option the session cannot use is the caller's bad usage, and what
// the session started before it is released.
func TestStartRefusesBadOptions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"metrics address", Options{MetricsAddr: "127.0.0.1:99999"}},
		{"dashboard address", Options{DashboardAddr: "127.0.0.1:99999"}},
		{"target sampler", Options{Target: targetOptions("ftp://x/metrics")}},
		{"dashboard address after the streams", Options{DashboardAddr: "127.0.0.1:99999",
			JTL: observe.Stream{Option: "--jtl", Path: filepath.Join(t.TempDir(), "r.jtl")}}},
	} {
		c.o.Stderr = &lockedBuffer{}
		_, err := Start(testPlan(t, 10, time.Second, 0), c.o)
		if !usage.Is(err) {
			t.Errorf("%s: error %v, want a usage error", c.name, err)
		}
	}
}

// An --abort-on-fail stop is not an interrupt: the run exits 3, says
// which gate stopped it, and is not marked interrupted.
func TestAbortIsNotAnInterrupt(t *testing.T) {
	gates, err := observe.ParseAbortGates([]string{"error_rate<5%"})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	guard := observe.NewAbortGuard(gates, 1, func() { stopped = true }, func(string) {})
	sec := result.NewTally()
	for i := 0; i < 10; i++ {
		class := "http_503"
		if i < 2 {
			class = result.OutcomeOK
		}
		sec.Add(result.Outcome{Class: class, Latency: time.Millisecond})
	}
	guard.Timeline(result.Second{}, &sec)
	if !stopped {
		t.Fatal("the guard did not stop the run")
	}
	var stderr bytes.Buffer
	s := &Session{o: Options{AbortGates: gates, Stderr: &stderr}, plan: &scenario.Plan{}, guard: guard,
		prog: newProgress(&stderr, true, time.Second), outputs: context.Background()}
	res := &result.Result{Interrupted: true, Errors: map[string]int64{"http_503": 8},
		Requests: result.Requests{Scheduled: 10, Sent: 10, OK: 2}}
	var stdout bytes.Buffer
	code, err := s.Finish(res, &stdout)
	if err != nil || code != verdict.ExitFailed {
		t.Fatalf("exit %d err %v, want %d", code, err, verdict.ExitFailed)
	}
	if res.Interrupted {
		t.Error("an abort by --abort-on-fail is marked interrupted")
	}
	if res.AbortedBy != "error_rate<5%" {
		t.Errorf("aborted_by %q, want the gate", res.AbortedBy)
	}
	if strings.Contains(stdout.String(), "INTERRUPTED") || !strings.Contains(stdout.String(), "stopped early by --abort-on-fail: error_rate<5%") {
		t.Errorf("summary:\n%s", stdout.String())
	}
}

// targetOptions samples the Prometheus endpoint at url.
func targetOptions(url string) sample.TargetOptions { return sample.TargetOptions{MetricsURL: url} }

// TestStopIsNotAnInterrupt stops a minute's run once it is under way: Run
// returns soon with every request accounted for, and the session is not
// interrupted (a signal's mark), so that `vesload capacity` can cut a
// failing step short and still read it.
func TestStopIsNotAnInterrupt(t *testing.T) {
	t.Parallel()
	var stderr lockedBuffer
	plan := testPlan(t, 50, time.Minute, 10*time.Millisecond)
	tr := plan.Config.Transport.(*answering)
	s, err := Start(plan, Options{Stderr: &stderr, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		waitfor.True(time.Minute, 5*time.Millisecond, func() bool { return tr.sent.Load() >= 3 })
		s.Stop()
	}()
	began := time.Now()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("the run ended %v after its start: Stop did not end its schedule", took)
	}
	if r := res.Requests; r.Sent < 3 || r.Scheduled != r.Sent+r.NotSent {
		t.Errorf("requests %+v: want the ones sent before the stop, every one accounted for", r)
	}
	if s.Interrupted() || strings.Contains(stderr.String(), "stopping") {
		t.Errorf("interrupted %v, stderr %q: a stop is not a signal", s.Interrupted(), stderr.String())
	}
}
