package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
)

// TestCapacityRefusesBadInput holds that bad input is one line naming
// its flag and exit 2, before anything starts: no emulator, no step.
func TestCapacityRefusesBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slo", "p99<5xs"}, "--slo"},
		{[]string{"--slo", "target_cpu_max<80%"}, "not measured per step"},
		{[]string{"--slo", "error_rate<1"}, "--slo"},
		{[]string{"--start", "400", "--max", "200"}, "--max 200 is below --start 400"},
		{[]string{"--start", "0"}, "--start 0"},
		{[]string{"--budget", "5s"}, "--budget 5s is shorter than one step"},
		{[]string{"--budget", "11s", "--step-duration", "10s", "--warmup", "2s"}, "shorter than one step"},
		{[]string{"--precision", "0%"}, "--precision"},
		{[]string{"--precision", "60%"}, "--precision"},
		{[]string{"--precision", "five"}, "--precision"},
		{[]string{"--step-duration", "1500ms"}, "--step-duration 1.5s: want whole seconds"},
		{[]string{"--warmup", "-1s"}, "--warmup"},
		{[]string{"--pool", "0"}, "--pool 0"},
		{[]string{"--url", "http://127.0.0.1:9/eventListener/v7", "--emulator-backend-pool", "8"}, "give no --url"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--step-results", "/nonexistent/steps"}, "--step-results /nonexistent/steps: want an existing folder"},
		{[]string{"--markdown", "/nonexistent/capacity.md"}, "--markdown /nonexistent/capacity.md"},
		{[]string{"--html", "/"}, "--html /: is a folder"},
		{[]string{"hv", "--addr", "127.0.0.1:9", "--emulator-process-rate", "100"}, "give no --addr"},
		{[]string{"hv", "--addr", "127.0.0.1:9", "--slo", "e2e_p99<1s"}, "e2e_p99 is not measured per step: delivery was not followed"},
		{[]string{"hv", "--addr", "127.0.0.1:9", "--slo", "hv.lost==0"}, "hv.lost is not measured per step"},
		{[]string{"hv", "--producers", "0"}, "producers"},
		{[]string{"hv", "--size", "-1"}, "size"},
		{[]string{"hv", "--cacert", "ca.pem"}, "need --addr"},
		{[]string{"hv", "--start", "500", "--max", "100"}, "--max 100 is below --start 500"},
		{[]string{"hv", "--emulator-process-rate", "-5"}, "--emulator-process-rate -5"},
		{[]string{"hv", "--messages", "10"}, "unknown flag: --messages"},
		{[]string{"hv", "extra"}, "unexpected argument"},
		{[]string{"hv", "--vary", "sideways"}, `--vary "sideways": want rate or producers`},
		{[]string{"hv", "--vary", "producers", "--producers", "4"}, "--producers: --vary producers searches them"},
		{[]string{"hv", "--interval", "5ms"}, "--interval: the rate sets it"},
		{[]string{"hv", "--vary", "producers", "--start", "2.5"}, "want whole producers"},
		{[]string{"hv", "--vary", "producers", "--interval", "0s"}, "--interval 0s"},
	} {
		var stdout, stderr bytes.Buffer
		code := dispatch(append([]string{"capacity"}, tc.args...), &stdout, &stderr)
		line := stderr.String()
		if code != exitUsage || strings.Count(line, "\n") != 1 || !strings.Contains(line, tc.want) || stdout.Len() != 0 {
			t.Errorf("capacity %q: exit %d, stderr %q, stdout %q; want exit 2 and one line with %q", tc.args, code, line, stdout.String(), tc.want)
		}
	}
}

// TestCapacityAgainstABoundedEmulator searches the built-in emulator with
// a service capacity of about 800/s (8 backend connections each held
// 10 ms): the search must report a capacity in a band below that, laid
// to the target and confirmed, with short steps and in well under a
// minute.
func TestCapacityAgainstABoundedEmulator(t *testing.T) {
	t.Parallel()
	out, steps := filepath.Join(t.TempDir(), "capacity.json"), t.TempDir()
	o := vesload(t, 2*time.Minute, "capacity", "--step-duration", "2s", "--warmup", "1s", "--precision", "10%",
		"--emulator-backend-pool", "8", "--emulator-publish-time", "10ms", "--slo", "p99<100ms", "--slo", "error_rate<0.1%",
		"--max", "3200", "--budget", "90s", "-o", out, "--step-results", steps)
	t.Logf("capacity search took %v\nstdout:\n%s", o.elapsed, o.stdout)
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	doc := readCapacity(t, out)
	c := doc.Capacity
	if doc.Schema != result.CapacitySchema || !doc.Config.Emulator {
		t.Errorf("schema %q, emulator %v", doc.Schema, doc.Config.Emulator)
	}
	if c.MaxRPS < 560 || c.MaxRPS > 800 || c.LimitedBy != result.CauseTarget || !c.Confirmed || c.Undecided != "" {
		t.Errorf("max %g/s (broke at %g/s by %s), limited by %q, confirmed %v, undecided %q; want 560 to 800/s, the target, confirmed",
			c.MaxRPS, c.FailRPS, c.BrokenBy, c.LimitedBy, c.Confirmed, c.Undecided)
	}
	if c.PrecisionPct > 10 || c.FailRPS <= c.MaxRPS {
		t.Errorf("boundary %g to %g/s, %g%% apart: want within 10%%", c.MaxRPS, c.FailRPS, c.PrecisionPct)
	}
	if c.SpentS > 60 || o.elapsed > 75*time.Second {
		t.Errorf("the search spent %.0fs and took %v: want well under a minute", c.SpentS, o.elapsed)
	}
	for _, s := range c.Steps {
		if s.Requests == 0 || !s.StoppedEarly && s.AchievedRPS < 0.9*s.OfferedRPS || len(s.Gates) != 2 || s.TargetCPUMaxPct == nil {
			t.Errorf("step %+v: want its figures, both gates and the emulator's CPU", s)
		}
		// Each step's whole run is a result as run -o writes it: three
		// seconds at its rate, unless it was stopped early.
		run := readResult(t, s.Result)
		if run.Config.RPS != s.OfferedRPS || !s.StoppedEarly && run.Requests.Scheduled != int64(3*s.OfferedRPS) {
			t.Errorf("step %d's run result %s: rate %g, %d scheduled; want %g/s for 3 s", s.N, s.Result, run.Config.RPS, run.Requests.Scheduled, s.OfferedRPS)
		}
		// The measured window is the step's seconds after its warm-up.
		if !s.StoppedEarly && s.Requests != int64(2*s.OfferedRPS) {
			t.Errorf("step %d at %g/s judged %d requests: want the 2 measured seconds' %g", s.N, s.OfferedRPS, s.Requests, 2*s.OfferedRPS)
		}
	}
	if n := strings.Count(o.stderr, "vesload capacity: step "); n != len(c.Steps) {
		t.Errorf("%d step lines on stderr for %d steps:\n%s", n, len(c.Steps), o.stderr)
	}
	for _, want := range []string{"Capacity: ", "Limited by: the target", "rate /s", "achieved /s", "p99 ms", "error %"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("summary without %q:\n%s", want, o.stdout)
		}
	}
}

// TestCapacityHVAgainstABoundedEmulator searches the built-in HV-VES
// emulator that handles at most 1,000 messages a second: what comes
// faster waits in its connections, so each message reaches Kafka later
// than the one before. The search, whose steps follow every message into
// the emulator's Kafka, must find the limit within 10 %, laid to the
// target, and its steps must carry the whole step's delivery.
func TestCapacityHVAgainstABoundedEmulator(t *testing.T) {
	t.Parallel()
	out, steps := filepath.Join(t.TempDir(), "capacity.json"), t.TempDir()
	o := vesload(t, 3*time.Minute, "capacity", "hv", "--step-duration", "2s", "--warmup", "1s", "--precision", "10%",
		"--emulator-process-rate", "1000", "--start", "500", "--max", "4000", "--budget", "2m", "-o", out, "--step-results", steps)
	t.Logf("capacity search took %v\nstdout:\n%s", o.elapsed, o.stdout)
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	doc := readCapacity(t, out)
	c := doc.Capacity
	if doc.Config.Protocol != result.ProtocolHV || !doc.Config.Emulator || doc.Config.Producers != 2 || !strings.HasPrefix(doc.Config.URL, "tcp://127.0.0.1:") {
		t.Errorf("config %+v: want an HV-VES search of the built-in emulator's 2 producers", doc.Config)
	}
	if c.MaxRPS < 900 || c.MaxRPS > 1100 || c.LimitedBy != result.CauseTarget || !c.Confirmed || c.Undecided != "" {
		t.Errorf("max %g/s (broke at %g/s by %s), limited by %q, confirmed %v, undecided %q; want 900 to 1,100/s, the target, confirmed",
			c.MaxRPS, c.FailRPS, c.BrokenBy, c.LimitedBy, c.Confirmed, c.Undecided)
	}
	for _, s := range c.Steps {
		run := readResult(t, s.Result)
		if run.HV == nil || run.Delivery == nil || run.Delivery.Delivered != run.HV.Sent.Written || len(s.Gates) != 3 {
			t.Errorf("step %d at %g/s: HV %v, delivery %+v, gates %v; want every written message followed into Kafka and 3 gates judged",
				s.N, s.OfferedRPS, run.HV != nil, run.Delivery, s.Gates)
			continue
		}
		if s.E2EP99Ms == nil || *s.E2EP99Ms != run.Delivery.E2E.P99 {
			t.Errorf("step %d: e2e p99 %v, want the step's delivery's %g ms", s.N, s.E2EP99Ms, run.Delivery.E2E.P99)
		}
	}
}

// TestCapacityHVAddsProducers searches the same bounded emulator by
// producers of 100 messages a second each, as the collector's own
// performance tests add them: every step a whole number of producers, the
// capacity 9 to 11 of them, laid to the target.
func TestCapacityHVAddsProducers(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "capacity.json")
	o := vesload(t, 3*time.Minute, "capacity", "hv", "--vary", "producers", "--interval", "10ms", "--start", "4", "--max", "32",
		"--step-duration", "2s", "--warmup", "1s", "--precision", "20%", "--emulator-process-rate", "1000", "--budget", "2m", "-o", out)
	t.Logf("capacity search took %v\nstdout:\n%s", o.elapsed, o.stdout)
	if o.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", o.code, o.stderr)
	}
	doc := readCapacity(t, out)
	c := doc.Capacity
	if doc.Config.Vary != "producers" || doc.Config.IntervalS != 0.01 || doc.Config.StartRPS != 400 {
		t.Errorf("config %+v: want producers of one message every 10ms, from 4 of them (400/s)", doc.Config)
	}
	if c.MaxProducers < 9 || c.MaxProducers > 11 || c.MaxRPS != float64(100*c.MaxProducers) || c.LimitedBy != result.CauseTarget || !c.Confirmed {
		t.Errorf("max %d producers (%g/s), limited by %q, confirmed %v; want 9 to 11 producers at 100/s each, the target, confirmed",
			c.MaxProducers, c.MaxRPS, c.LimitedBy, c.Confirmed)
	}
	for _, s := range c.Steps {
		if s.OfferedRPS != 100*float64(int(s.OfferedRPS/100)) {
			t.Errorf("step %d at %g/s: not a whole number of producers", s.N, s.OfferedRPS)
		}
	}
	if !strings.Contains(o.stdout, " producers) (broke at ") {
		t.Errorf("summary does not count producers:\n%s", o.stdout)
	}
}

// TestCapacityStopsAFailingStepEarly runs a search in this process (the
// race detector watches the step's window and its stop) against the
// built-in emulator bounded to about 100/s: the step at 400/s breaks the
// error SLO within its first measured second and is stopped before its
// end, and the budget of two steps ends the search undecided (exit 3).
func TestCapacityStopsAFailingStepEarly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, md, page := filepath.Join(dir, "capacity.json"), filepath.Join(dir, "capacity.md"), filepath.Join(dir, "capacity.html")
	var stdout, stderr bytes.Buffer
	code := dispatch([]string{"capacity", "--start", "400", "--max", "400", "--step-duration", "3s", "--warmup", "1s",
		"--emulator-backend-pool", "1", "--emulator-publish-time", "10ms", "--slo", "error_rate<0.1%", "--budget", "8s", "-o", out,
		"--markdown", md, "--html", page, "--label", "build=1.9.1"}, &stdout, &stderr)
	if code != exitThreshold {
		t.Fatalf("exit %d, want 3 (undecided)\nstderr: %s", code, stderr.String())
	}
	doc := readCapacity(t, out)
	if doc.Labels["build"] != "1.9.1" {
		t.Errorf("labels %v, want build=1.9.1 (--label), by which trend orders searches", doc.Labels)
	}
	c := doc.Capacity
	if len(c.Steps) == 0 || c.Undecided == "" {
		t.Fatalf("steps %+v, undecided %q: want a step and what the budget left undecided", c.Steps, c.Undecided)
	}
	first := c.Steps[0]
	if first.Pass || !first.StoppedEarly || first.TookS >= 3.5 || first.Cause != result.CauseTarget {
		t.Errorf("first step: pass %v, stopped early %v, took %.1fs, cause %q; want a failure of the target stopped before its 4 s",
			first.Pass, first.StoppedEarly, first.TookS, first.Cause)
	}
	// --markdown and --html render the same document.
	for _, f := range []struct{ path, want string }{
		{md, "| FAIL (stopped early) | target |"},
		{page, `<section id="curve">`},
		{page, "<h1>Capacity: no rate held the SLOs</h1>"},
	} {
		raw, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), f.want) {
			t.Errorf("%s lacks %q:\n%s", f.path, f.want, raw)
		}
	}
}

// TestCapacityInterrupted stops a search by its context (a signal) once
// its first step is judged: it exits 130 and still writes its document,
// which says the search was interrupted and keeps the steps judged.
func TestCapacityInterrupted(t *testing.T) {
	t.Parallel()
	var o capacityOptions
	fs := capacityFlags(&o)
	out := filepath.Join(t.TempDir(), "capacity.json")
	if err := parseFlags(fs, []string{"--start", "50", "--step-duration", "1s", "--warmup", "0s", "-o", out}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	go func() {
		waitfor.True(time.Minute, 10*time.Millisecond, func() bool { return strings.Contains(stderr.String(), "step 1 ") })
		cancel() // the test's goroutine checks that a step was judged
	}()
	code, err := executeCapacity(ctx, &o, fs.Changed, &stdout, &stderr)
	if err != nil || code != exitInterrupted {
		t.Fatalf("exit %d, %v; want 130\nstderr: %s", code, err, stderr.String())
	}
	doc := readCapacity(t, out)
	if c := doc.Capacity; len(c.Steps) == 0 || !strings.Contains(c.Undecided, "interrupted") || c.Confirmed {
		t.Errorf("steps %d, undecided %q, confirmed %v: want the steps judged and the interruption said", len(c.Steps), c.Undecided, c.Confirmed)
	}
}
