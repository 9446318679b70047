package metrics

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/promtext"
	"github.com/vesload/vesload/loadgen/sample"
)

// maxTargetSeries caps the named target series: they come from the
// command line (PromQL query names) and the samplers, a handful at most.
const maxTargetSeries = 32

// SetInFlight sets the number of requests written and not yet answered.
func (e *Exporter) SetInFlight(n int64) { e.inFlight.set(float64(n)) }

// SetRates sets the rate the schedule asks for and the rate achieved in
// the last second.
func (e *Exporter) SetRates(target, achieved float64) {
	e.targetRPS.set(target)
	e.achievedRPS.set(achieved)
}

// SetDispatchLag sets how late the generator dispatched over the last
// second: when this grows, the generator, not the target, is the limit.
func (e *Exporter) SetDispatchLag(p50, p99, maxLag time.Duration) {
	e.lagP50.set(p50.Seconds())
	e.lagP99.set(p99.Seconds())
	e.lagMax.set(maxLag.Seconds())
}

// SetTarget publishes the latest reading of the system under test. A
// figure the reading does not have (no CPU yet, no memory series) leaves
// the gauge at its last value rather than dropping it to zero.
func (e *Exporter) SetTarget(r sample.Reading) {
	setReading(&e.targetCPU, &e.targetRSS, r)
	for name, v := range r.Extra {
		if g := e.targetGauge(name); g != nil {
			g.set(v)
		}
	}
}

// SetGenerator publishes the latest reading of vesload's own process.
func (e *Exporter) SetGenerator(r sample.Reading) {
	setReading(&e.genCPU, &e.genRSS, r)
}

// setReading sets a CPU and a memory gauge from r.
func setReading(cpu, rss *gauge, r sample.Reading) {
	if !r.NoCPU {
		cpu.set(r.CPUPct)
	}
	if r.RSSBytes > 0 {
		rss.set(float64(r.RSSBytes))
	}
}

// targetGauge resolves the gauge of a named target series, or nil past
// the cap.
func (e *Exporter) targetGauge(name string) *gauge {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g, ok := e.series[name]; ok {
		return g
	}
	if len(e.series) >= maxTargetSeries {
		return nil
	}
	g := new(gauge)
	e.series[name] = g
	return g
}

// writeTargetSeries renders vesload_target_series, sorted by name.
func (e *Exporter) writeTargetSeries(w *promtext.Writer) {
	all := sortedSeries(&e.mu, e.series, strings.Compare)
	w.Header("vesload_target_series", promtext.Gauge,
		"Named series sampled from the target (PromQL queries, system_cpu_pct, jvm_memory_used_bytes).")
	for _, s := range all {
		w.Sample("vesload_target_series", []promtext.Label{{Name: "series", Value: s.key}}, s.val.get())
	}
}

// entry is one series of a labelled family: its key and its value.
type entry[K comparable, V any] struct {
	key K
	val V
}

// sortedSeries copies the series of m under mu and sorts them by key, so
// that a scrape renders them in a stable order without holding mu.
func sortedSeries[K comparable, V any](mu *sync.Mutex, m map[K]V, compare func(a, b K) int) []entry[K, V] {
	mu.Lock()
	all := make([]entry[K, V], 0, len(m))
	for k, v := range m {
		all = append(all, entry[K, V]{k, v})
	}
	mu.Unlock()
	slices.SortFunc(all, func(a, b entry[K, V]) int { return compare(a.key, b.key) })
	return all
}
