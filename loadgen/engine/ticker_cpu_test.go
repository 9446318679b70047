package engine

import (
	"context"
	"testing"
	"time"
)

// cpuReadings is the generator's process as a sampler: each Sample
// returns the next CPU figure.
type cpuReadings struct {
	pct []float64
	n   int
}

func (c *cpuReadings) Source() string   { return "self" }
func (c *cpuReadings) Series() []string { return nil }
func (c *cpuReadings) Sample(context.Context, time.Time) (Reading, error) {
	r := Reading{CPUPct: c.pct[c.n]}
	c.n++
	return r, nil
}

// The generator's CPU average is its CPU time over the run's time, each
// reading weighed by its interval: the run's last reading, a few
// milliseconds after the last whole second, may show a burst (500 %, or
// one 10 ms clock tick where CPU time is counted in ticks) and must not
// count as a second of its own, nor set the peak. Seven seconds at 50 %
// and 2 ms "at 500 %" average about 50 %, never the 106 % a mean of the
// readings makes.
func TestGeneratorCPUWeighsEachReadingByItsInterval(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	self := &cpuReadings{pct: []float64{50, 50, 50, 50, 50, 50, 50, 500}}
	tk := &ticker{started: start, self: self}
	for s := 1; s <= 7; s++ {
		tk.readSelf(start.Add(time.Duration(s) * time.Second))
	}
	tk.readSelf(start.Add(7*time.Second + 2*time.Millisecond)) // the stop's last, partial reading
	g := (&Engine{lag: newLagMeter()}).health(tk.cpuStats, 0, false)
	if g.CPUAvgPct < 49 || g.CPUAvgPct > 51 || g.CPUMaxPct != 50 {
		t.Errorf("generator CPU avg %.2f %%, max %.2f %%; want about 50 and 50", g.CPUAvgPct, g.CPUMaxPct)
	}
}

// The run's CPU is counted from its start, not from when the sampler was
// opened: the set-up before it (connections, preflight, shards agreeing on
// the start) is not the run's. The sampler's first reading, taken as the
// ticker starts, covers the set-up (here 400 %, a busy few milliseconds)
// and must count for nothing; then three seconds at 30 %.
func TestGeneratorCPUCountsFromTheStart(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	self := &cpuReadings{pct: []float64{400, 30, 30, 30}}
	tk := (&Engine{}).newTicker(start, self)
	if self.n != 1 {
		t.Fatalf("the ticker read the generator %d times as it started, want once", self.n)
	}
	for s := 1; s <= 3; s++ {
		tk.readSelf(start.Add(time.Duration(s) * time.Second))
	}
	g := (&Engine{lag: newLagMeter()}).health(tk.cpuStats, 0, false)
	if g.CPUAvgPct != 30 || g.CPUMaxPct != 30 {
		t.Errorf("generator CPU avg %.2f %%, max %.2f %%; want 30 and 30", g.CPUAvgPct, g.CPUMaxPct)
	}
}
