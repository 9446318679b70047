package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vesload/vesload/loadgen/sample"
)

// maxTargetSeries caps the named target series: they come from the
// command line (PromQL query names) and the samplers, a handful at most.
const maxTargetSeries = 32

// SetInFlight sets the number of requests written and not yet answered.
func (e *Exporter) SetInFlight(n int64) { e.inFlight.Set(float64(n)) }

// SetUnsent sets what of the schedule is not sent: notYetDue while the
// run goes on, stopped once a stop cut the rest off, so that a scrape
// during a run does not read the requests to come as lost.
func (e *Exporter) SetUnsent(notYetDue, stopped int64) {
	e.notYetDue.Set(float64(notYetDue))
	e.stopped.Set(float64(stopped))
}

// SetRates sets the rate the schedule asks for and the rate achieved in
// the last second.
func (e *Exporter) SetRates(target, achieved float64) {
	e.targetRPS.Set(target)
	e.achievedRPS.Set(achieved)
}

// SetDispatchLag sets how late the generator dispatched over the last
// second: when this grows, the generator, not the target, is the limit.
func (e *Exporter) SetDispatchLag(p50, p99, maxLag time.Duration) {
	e.lagP50.Set(p50.Seconds())
	e.lagP99.Set(p99.Seconds())
	e.lagMax.Set(maxLag.Seconds())
}

// SetTarget publishes the latest reading of the system under test. A
// figure the reading does not have (no CPU yet, no memory series) leaves
// the gauge at its last value rather than dropping it to zero.
func (e *Exporter) SetTarget(r sample.Reading) {
	setReading(e.targetCPU, e.targetRSS, r)
	for name, v := range r.Extra {
		if g := e.targetGauge(name); g != nil {
			g.Set(v)
		}
	}
}

// SetGenerator publishes the latest reading of vesload's own process.
func (e *Exporter) SetGenerator(r sample.Reading) {
	setReading(e.genCPU, e.genRSS, r)
}

// setReading sets a CPU and a memory gauge from r.
func setReading(cpu, rss prometheus.Gauge, r sample.Reading) {
	if !r.NoCPU {
		cpu.Set(r.CPUPct)
	}
	if r.RSSBytes > 0 {
		rss.Set(float64(r.RSSBytes))
	}
}

// targetGauge resolves the gauge of a named target series, or nil past
// the cap.
func (e *Exporter) targetGauge(name string) prometheus.Gauge {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g, ok := e.series[name]; ok {
		return g
	}
	if len(e.series) >= maxTargetSeries {
		return nil
	}
	g := e.targetSeries.WithLabelValues(name)
	e.series[name] = g
	return g
}
