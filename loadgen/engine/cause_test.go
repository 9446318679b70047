package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// TestOneCausePerRun gives the warnings every combination of a late
// generator (none, a stalled machine, a busy generator, briefly late),
// a silent target and a pool that refused requests: the warnings name
// one cause, by the documented precedence, and never advise on another.
func TestOneCausePerRun(t *testing.T) {
	t.Parallel()
	gens := []struct {
		name string
		g    result.Generator
	}{
		{"on time", result.Generator{DispatchLagP99Ms: 0.2, DispatchLagMaxMs: 3, CPUAvgPct: 20}},
		// A machine stopped for the target's whole "silence": the
		// generator was late by as long.
		{"stalled machine", result.Generator{DispatchLagP99Ms: 300_000, DispatchLagMaxMs: 309_950, CPUAvgPct: 7.8, Saturated: true}},
		{"busy generator", result.Generator{DispatchLagP99Ms: 2_000, DispatchLagMaxMs: 305_000, CPUAvgPct: 190, Saturated: true}},
		// Late by milliseconds only: a silence of minutes is the target's.
		{"briefly late", result.Generator{DispatchLagP99Ms: 12, DispatchLagMaxMs: 40, CPUAvgPct: 190, Saturated: true}},
		// Stopped once, for the whole silence, in a run long enough that
		// the lag's p99 stayed low: not saturated, yet the cause.
		{"held once", result.Generator{DispatchLagP99Ms: 0.3, DispatchLagMaxMs: 309_950, CPUAvgPct: 5}},
	}
	causes := map[string]string{
		"stalled machine": "generator saturated",
		"busy generator":  "generator saturated",
		"briefly late":    "generator saturated",
	}
	for _, gen := range gens {
		for _, silent := range []bool{false, true} {
			for _, refused := range []bool{false, true} {
				name := gen.name
				want := causes[gen.name]
				if silent {
					name += ", silent target"
					switch gen.name {
					case "held once":
						want = "generator held up"
					case "on time", "briefly late":
						want = "the target stopped answering"
					}
				}
				if refused {
					name += ", pool refused"
					if want == "" || (gen.name == "briefly late" && !silent) {
						want = "the pool was the limit"
					}
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					w := limitWarnings(gen.g, silent, refused)
					checkOneCause(t, w, want, gen.g, silent, refused)
				})
			}
		}
	}
}

// limitWarnings are the warnings of a run of 20,000 requests with the
// generator's figures g, 309.9 s without an answer when silent and 1,234
// requests refused by the pool when refused.
func limitWarnings(g result.Generator, silent, refused bool) []string {
	e := &Engine{cfg: Config{Pool: 8, PoolWait: time.Second}}
	res := &result.Result{Generator: g, Errors: map[string]int64{}}
	res.Requests.Scheduled = 20_000
	var tl tallies
	if silent {
		tl.silent, tl.silentFrom = 309_900*time.Millisecond, 12*time.Second
	}
	if refused {
		res.Errors[result.ClassPoolExhausted] = 1_234
	}
	return e.warnings(res, tl)
}

func checkOneCause(t *testing.T, w []string, want string, g result.Generator, silent, refused bool) {
	t.Helper()
	all := strings.Join(w, "\n")
	if want == "" {
		if len(w) != 0 {
			t.Fatalf("warnings %q, want none", w)
		}
		return
	}
	if len(w) != 1 || !strings.HasPrefix(w[0], want) {
		t.Fatalf("warnings:\n%s\nwant one, starting %q", all, want)
	}
	for _, other := range []string{"generator saturated", "generator held up", "the target stopped answering", "the pool was the limit"} {
		if other != want && strings.Contains(all, other) {
			t.Errorf("warnings:\n%s\nname %q beside the cause %q", all, other, want)
		}
	}
	if want != "the pool was the limit" && strings.Contains(all, "raise --pool") {
		t.Errorf("warnings:\n%s\nadvise raising the pool, which was not the limit", all)
	}
	if g.Saturated && strings.Contains(all, "the generator was not the cause") {
		t.Errorf("warnings:\n%s\nacquit a saturated generator", all)
	}
	// The facts of the others stay, as figures.
	if silent && !strings.Contains(all, "309.9 s") {
		t.Errorf("warnings:\n%s\nlost the 309.9 s without an answer", all)
	}
	if refused && !strings.Contains(all, "1234 requests (6.2%)") {
		t.Errorf("warnings:\n%s\nlost the 1234 requests the pool refused", all)
	}
}
