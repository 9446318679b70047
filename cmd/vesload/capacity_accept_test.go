package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/nginxtest"
	"github.com/vesload/vesload/report/result"
)

// The acceptance of `vesload capacity` against real servers (issue 39's
// "Done when"): a rate limit found where nginx puts it and laid to the
// target, and a generator on one core that cannot keep up with nginx on
// the other laid to the generator, with the advice to shard.
// bench/capacity.sh runs the same searches with the 5 s steps.

// The rate limit TestCapacityAgainstRateLimitingNginx sets in nginx, and
// its search's measured seconds per step.
//
// nginx's limit_req is a leaky bucket counted in milliseconds: each
// request adds one to an excess that drains at limitRate a second, and a
// request that would take the excess past limitBurst is refused (503);
// nodelay answers the ones within the burst at once instead of spacing
// them out. An open-model load below the rate is refused only when the
// generator's timer bunches more than limitBurst requests together: a
// stall of limitBurst/rate, 100 ms at 1,000/s, far beyond the few
// milliseconds a busy machine delays a timer. Without a burst, of any two
// requests within one millisecond nginx would refuse the second, and a
// steady 900/s has many such pairs.
//
// The burst also lets a step above the rate through for a while, which
// bounds the capacity the search may report from above: over the W
// measured seconds of a step at r/s, nginx accepts at most limitRate·W
// plus the burst still free when they begin (limitBurst at most), so it
// refuses at least (r − limitRate)·W − limitBurst of the r·W requests,
// and error_rate<0.1% holds only when that is under r·W/1000:
// r < (limitRate + limitBurst/W) / 0.999, that is 1,051/s with W = 2 s.
// The search may report that much above the rate, and no more.
const (
	limitRate  = 1000
	limitBurst = limitRate / 10
	limitStepS = 2
)

// TestCapacityAgainstRateLimitingNginx searches a real nginx that
// rate-limits the VES listener (limit_req, 503 beyond the rate): the
// capacity must be within 10 % below the configured rate and no higher
// than its burst lets a step pass, laid to the target, confirmed, exit 0,
// and every failing step refused by nginx itself (http_503), in well
// under a minute.
func TestCapacityAgainstRateLimitingNginx(t *testing.T) {
	t.Parallel()
	base := nginxtest.StartConfig(t, nginxtest.Config{Rate: limitRate, Burst: limitBurst}).URL
	out, steps := filepath.Join(t.TempDir(), "capacity.json"), t.TempDir()
	// From 250/s the climb passes the rate in three steps of 1 + 2 s; a
	// pool of 256 holds the requests a late timer bunches together, so
	// that what fails is nginx's refusal, not the pool.
	o := vesload(t, 90*time.Second, "capacity", "--url", base+"/eventListener/v7", "--slo", "error_rate<0.1%",
		"--start", "250", "--max", "4000", "--pool", "256", "--step-duration", strconv.Itoa(limitStepS)+"s", "--warmup", "1s",
		"--precision", "10%", "--budget", "50s", "-o", out, "--step-results", steps)
	t.Logf("capacity search took %v\nstdout:\n%s", o.elapsed, o.stdout)
	if o.code != exitOK {
		t.Fatalf("exit %d, want 0 (a capacity found and confirmed)\nstderr: %s", o.code, o.stderr)
	}
	c := readCapacity(t, out).Capacity
	lowest, highest := 0.9*limitRate, (limitRate+float64(limitBurst)/limitStepS)/0.999
	if c.MaxRPS < lowest || c.MaxRPS > highest {
		t.Errorf("capacity %g/s (broke at %g/s by %s): want %g to %.1f/s, within 10 %% below nginx's rate of %d/s and no higher than its burst of %d lets a step pass",
			c.MaxRPS, c.FailRPS, c.BrokenBy, lowest, highest, limitRate, limitBurst)
	}
	if c.LimitedBy != result.CauseTarget || !c.Confirmed || c.Undecided != "" || c.Advice != "" || !strings.Contains(c.BrokenBy, "error_rate") {
		t.Errorf("limited by %q, confirmed %v, undecided %q, advice %q, broken by %q: want the target, confirmed, broken by the error rate",
			c.LimitedBy, c.Confirmed, c.Undecided, c.Advice, c.BrokenBy)
	}
	if c.SpentS > 50 || o.elapsed > 75*time.Second {
		t.Errorf("the search spent %.0fs and took %v: want well under a minute", c.SpentS, o.elapsed)
	}
	// nginx refused what failed: its 503s, beside at most a few due
	// requests a stalled timer bunched beyond the pool.
	for _, s := range c.Steps {
		if s.Pass {
			continue
		}
		run := readResult(t, s.Result)
		if run.Errors["http_503"] == 0 || run.Errors["http_503"]+run.Errors[result.ClassPoolExhausted] != run.Requests.Errors {
			t.Errorf("failing step %d at %g/s: errors %v; want nginx's 503s", s.N, s.OfferedRPS, run.Errors)
		}
		if s.Cause != result.CauseTarget {
			t.Errorf("failing step %d at %g/s laid to the %s: want the target, which refused %.2f %%", s.N, s.OfferedRPS, s.Cause, s.ErrorRatePct)
		}
	}
	if !strings.Contains(o.stdout, "Limited by: the target") || strings.Contains(o.stdout, "add shards") {
		t.Errorf("summary does not lay the limit to the target alone:\n%s", o.stdout)
	}
}

// TestCapacityLimitedByTheGenerator searches a target faster than the
// generator: nginx answering 202 with its one worker on CPU 1, vesload
// held to CPU 0 (taskset), where it reaches its own limit at a rate nginx
// still answers at once. On an idle machine of this kind the search finds
// 48,000 to 64,000/s for vesload on one core, and nginx answers wrk's
// closed loop at 111,000/s on one (bench/RESULTS.md): --max 100000 lies
// between, so that the climb stops before nginx could become the limit.
// The search must lay the limit to the generator and say to shard, in
// its document and its summary, with nginx refusing nothing; the pool
// (1,024 connections) is far more than a fast target keeps busy, so that
// the boundary's step fails on the generator's own lag, not on the pool.
// A busy machine slows the generator further, which still says
// generator.
//
// It runs alone, with VESLOAD_ALONE=1, which make test sets for a run of
// its own after every other test: its steps hold a core busy for their
// length, which would slow the tests that measure latency beside it, and
// other tests' work on its cores (another package's, run at the same time
// by go test) would slow nginx as much as vesload and blur which of the
// two broke.
func TestCapacityLimitedByTheGenerator(t *testing.T) {
	if os.Getenv("VESLOAD_ALONE") != "1" {
		t.Skip("runs alone (VESLOAD_ALONE=1): make test runs it after every other test, so that nginx and vesload have a core each to themselves")
	}
	taskset := pinnable(t)
	nginx := nginxtest.StartConfig(t, nginxtest.Config{CPUs: []int{1}})
	out, steps := filepath.Join(t.TempDir(), "capacity.json"), t.TempDir()
	args := []string{"capacity", "--url", nginx.URL + "/eventListener/v7",
		"--start", "12500", "--max", "100000", "--pool", "1024", "--step-duration", "2s", "--warmup", "1s", "--precision", "50%",
		"--budget", "30s", "-o", out, "--step-results", steps}
	if nginx.Worker > 0 {
		// nginx's CPU beside each step: the figure that shows, should a
		// machine make nginx the slower of the two, that it was.
		args = append(args, "--target-pid", strconv.Itoa(nginx.Worker))
	}
	o := vesloadUnder(t, 90*time.Second, nil, []string{taskset, "-c", "0"}, args...)
	t.Logf("capacity search took %v\nstdout:\n%s", o.elapsed, o.stdout)
	doc := readCapacity(t, out)
	c := doc.Capacity
	// A confirmed boundary, or one the busy machine moved until the
	// budget ran out: either way the limit is laid.
	if o.code != exitOK && (o.code != exitThreshold || c.Undecided == "" || c.FailRPS == 0) {
		t.Fatalf("exit %d, undecided %q, lowest fail %g/s: want 0, or 3 with a lowest fail and what was undecided\nstderr: %s",
			o.code, c.Undecided, c.FailRPS, o.stderr)
	}
	if c.LimitedBy != result.CauseGenerator || !strings.Contains(c.Advice, "add shards (vesload kube)") {
		t.Errorf("capacity %g/s, broke at %g/s by %s, limited by %q, advice %q: want the generator and the advice to shard",
			c.MaxRPS, c.FailRPS, c.BrokenBy, c.LimitedBy, c.Advice)
	}
	for _, want := range []string{"Limited by: the generator", "the generator, not the target, limits at", "add shards (vesload kube)"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("summary without %q:\n%s", want, o.stdout)
		}
	}
	if c.SpentS > 30 || o.elapsed > 50*time.Second {
		t.Errorf("the search spent %.0fs and took %v: want well under a minute", c.SpentS, o.elapsed)
	}
	for _, s := range c.Steps {
		run := readResult(t, s.Result)
		g := run.Generator
		// What the cause was read from, second by second, for the log
		// of a run that fails.
		t.Logf("step %d at %g/s, %s: generator CPU avg %.0f %%, dispatch lag p99 %g ms, wait to run p99 %g ms (window); service avg %.2f ms; errors %v",
			s.N, s.OfferedRPS, s.Cause, g.CPUAvgPct, g.DispatchLagP99Ms, s.GeneratorSchedP99Ms, run.Service.Avg, run.Errors)
		for _, sec := range run.Timeline {
			t.Logf("  second %d: generator CPU %.0f %%, wait to run p99 %.2f ms; nginx CPU %.0f %%; sent %d, p50 %.2f ms, in flight %d",
				sec.T, sec.GenCPUPct, sec.GenSchedP99Ms, sec.TargetCPUPct, sec.Sent, sec.P50Ms, sec.InFlight)
		}
		for class := range run.Errors {
			if class != result.ClassPoolExhausted {
				t.Errorf("step %d at %g/s: errors %v; want none but the generator's pool_exhausted: nginx refused or failed nothing", s.N, s.OfferedRPS, run.Errors)
			}
		}
		// The boundary's failing step broke on the generator's own
		// figures, not on a pool too small for a fast target.
		if s.OfferedRPS == c.FailRPS && !s.Pass && !s.GeneratorSaturated && s.DispatchLagP99Ms <= 5 && s.GeneratorSchedP99Ms < 2 {
			t.Errorf("boundary step %d at %g/s: saturated %v, dispatch lag p99 %g ms, wait to run p99 %g ms, pool_exhausted %d; want the generator saturated or late to run",
				s.N, s.OfferedRPS, s.GeneratorSaturated, s.DispatchLagP99Ms, s.GeneratorSchedP99Ms, s.PoolExhausted)
		}
	}
}

// pinnable returns taskset's path, or skips the test when the generator
// and the target cannot each have a CPU of their own (CPUs 0 and 1).
func pinnable(t *testing.T) string {
	t.Helper()
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("taskset not found (util-linux): the generator cannot be held to one CPU")
	}
	if runtime.NumCPU() < 2 {
		t.Skipf("%d CPU: the generator and nginx need one each", runtime.NumCPU())
	}
	if msg, err := exec.Command(taskset, "-c", "0,1", "true").CombinedOutput(); err != nil {
		t.Skipf("CPUs 0 and 1 are not both usable here (taskset -c 0,1: %v %s): the generator and nginx need one each", err, msg)
	}
	return taskset
}

// readCapacity reads a search's document written by -o.
func readCapacity(t *testing.T, path string) *result.CapacityDocument {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc result.CapacityDocument
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if doc.Schema != result.CapacitySchema {
		t.Fatalf("%s: schema %q, want %q", path, doc.Schema, result.CapacitySchema)
	}
	return &doc
}
