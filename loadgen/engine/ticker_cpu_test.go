package engine

import (
	"context"
	"runtime"
	"slices"
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

// After the machine stalled for 309 s, the ticker catches up with the
// seconds it missed in a burst of readings a millisecond apart, each
// showing the generator busy on every core as it catches up; and a
// reading whose interval was measured short claims more CPU than the
// cores have. Every second the chart shows is within cores × 100 %, the
// catching-up seconds show the reading that covered the stall, and the
// summary's max is the highest the chart shows.
func TestGeneratorCPUChartAndMaxAreOneSeries(t *testing.T) {
	t.Parallel()
	ceiling := 100 * float64(runtime.NumCPU())
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := []time.Duration{time.Second, 2 * time.Second, 311 * time.Second}
	pct := []float64{50, 50, 0.5}
	for i := 1; i <= 5; i++ { // catching up
		at = append(at, 311*time.Second+time.Duration(i)*time.Millisecond)
		pct = append(pct, 0.96*ceiling)
	}
	at = append(at, 312*time.Second, 313*time.Second)
	pct = append(pct, 4.2*ceiling, 60)
	tk := &ticker{started: start, self: &cpuReadings{pct: pct}}
	var chart []float64
	for _, d := range at {
		cpu, _ := tk.readSelf(start.Add(d))
		chart = append(chart, cpu)
	}
	g := (&Engine{lag: newLagMeter()}).health(tk.cpuStats, 0, false)
	for i, c := range chart {
		if c > ceiling {
			t.Errorf("second %d shows %.1f %% CPU, beyond the %.0f %% of %d cores", i, c, ceiling, runtime.NumCPU())
		}
	}
	for i := 3; i < 8; i++ {
		if chart[i] != 0.5 {
			t.Errorf("catching-up second %d shows %.1f %%, want the 0.5 %% of the reading over the stall", i, chart[i])
		}
	}
	if peak := slices.Max(chart); g.CPUMaxPct != peak {
		t.Errorf("summary's CPU max %.1f %%, the chart's highest %.1f %%: want one figure", g.CPUMaxPct, peak)
	}
	if g.CPUMaxPct > ceiling || g.CPUAvgPct > g.CPUMaxPct {
		t.Errorf("CPU avg %.1f %%, max %.1f %%: want avg ≤ max ≤ %.0f %%", g.CPUAvgPct, g.CPUMaxPct, ceiling)
	}
}
