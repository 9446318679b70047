package summary

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestCapacity(t *testing.T) {
	t.Parallel()
	cpu := 41.0 // one decimal, as the Markdown and HTML show it
	step := func(n int, rate float64, pass bool) result.CapacityStep {
		s := result.CapacityStep{N: n, Phase: "climb", OfferedRPS: rate, AchievedRPS: rate, P50Ms: 10, P99Ms: 12, Pass: pass,
			Decided: "p99<100ms: 12.00 ms", SpentS: 3 * float64(n), BudgetS: 600}
		if !pass {
			s.Cause, s.ErrorRatePct, s.StoppedEarly, s.Decided = result.CauseTarget, 6.5, true, "error_rate<0.1%: 6.50%"
		}
		return s
	}
	found := result.Capacity{MaxRPS: 750, FailRPS: 800, BrokenBy: "error_rate<0.1%: 6.50%", LimitedBy: result.CauseTarget,
		PrecisionPct: 6.67, AskedPrecisionPct: 10, Confirmed: true, SpentS: 9, BudgetS: 600,
		Steps: []result.CapacityStep{step(1, 750, true), step(2, 800, false), step(3, 750, true)}}
	found.Steps[0].TargetCPUMaxPct = &cpu
	followed, e2e := found, 371.45
	followed.Steps = []result.CapacityStep{step(1, 1125, false), step(2, 1063, true)}
	followed.Steps[0].E2EP99Ms = &e2e // the second's was not followed
	for _, tc := range []struct {
		name string
		doc  result.CapacityDocument
		want []string
	}{
		{"found", result.CapacityDocument{Config: result.CapacityConfig{URL: "http://127.0.0.1:1/eventListener/v7\x1b[2J",
			SLOs: []string{"p99<100ms", "error_rate<0.1%"}}, Capacity: found},
			[]string{"Capacity: 750/s (broke at 800/s: error_rate<0.1%: 6.50%; 6.67 % apart, both run again)", "Limited by: the target",
				"rate /s", "41.0", "FAIL (target), stopped early", `\x1b[2J`}},
		{"HV-VES, followed into Kafka", result.CapacityDocument{Config: result.CapacityConfig{URL: "tcp://127.0.0.1:6061",
			Protocol: result.ProtocolHV, Producers: 2, SizeBytes: 8192}, Capacity: followed},
			[]string{"HV-VES: 2 producers, messages of 8192 bytes; rates are messages a second", "e2e p99 ms", "371.45", "n/a"}},
		{"HV-VES producers added", result.CapacityDocument{Config: result.CapacityConfig{URL: "tcp://127.0.0.1:6061",
			Protocol: result.ProtocolHV, SizeBytes: 8192, Vary: "producers", IntervalS: 0.01},
			Capacity: result.Capacity{MaxRPS: 700, MaxProducers: 7, FailRPS: 800, FailProducers: 8, BrokenBy: "e2e_p99<250ms: 371.45 ms"}},
			[]string{"Capacity: 700/s (7 producers) (broke at 800/s (8 producers): e2e_p99<250ms",
				"producers added one by one, each sending a message every 10ms (100/s)"}},
		{"nothing held", result.CapacityDocument{Capacity: result.Capacity{Undecided: "no step held the SLOs, down to 1/s"}},
			[]string{"no rate held the SLOs", "Undecided: no step held"}},
		{"the generator", result.CapacityDocument{Capacity: result.Capacity{MaxRPS: 900, FailRPS: 950, LimitedBy: result.CauseGenerator,
			Advice: "the generator, not the target, limits at 950/s on this machine: add shards (vesload kube)"}},
			[]string{"Limited by: the generator", "add shards", "not confirmed"}},
	} {
		var b bytes.Buffer
		if err := Capacity(&b, &tc.doc); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, b.String())
			}
		}
		if strings.Contains(b.String(), "\x1b") {
			t.Errorf("%s: a control character reached the terminal:\n%q", tc.name, b.String())
		}
	}
	added := found.Steps[1]
	added.Producers = 8
	if line := CapacityStepLine(added); !strings.HasPrefix(line, "step 2 climb 800/s (8 producers): FAIL") {
		t.Errorf("step line %q: want its producers counted", line)
	}
	line := CapacityStepLine(found.Steps[1])
	for _, w := range []string{"step 2 climb 800/s: FAIL (target), error_rate<0.1%: 6.50%", "stopped early", "6s of 10m0s"} {
		if !strings.Contains(line, w) {
			t.Errorf("step line %q: no %q", line, w)
		}
	}
}
