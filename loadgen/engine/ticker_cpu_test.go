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
// milliseconds after the last whole second and measured in the kernel's
// 10 ms ticks, shows one tick as 500 % and must not count as a second of
// its own, nor set the peak. Seven seconds at 50 % and 2 ms "at 500 %"
// average about 50 %, never the 106 % a mean of the readings makes.
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
