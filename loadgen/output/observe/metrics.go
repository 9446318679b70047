package observe

import (
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/metrics"
	"github.com/vesload/vesload/report/result"
)

// Metrics feeds vesload's own Prometheus metrics (a metrics.Exporter) from the engine (docs/ARCHITECTURE.md,
// "Observers"): every finished request's counters, each second of the
// timeline's histograms, and the live figures once a
// second (requests in flight, rates, dispatch lag, the target's and the
// generator's readings).
type Metrics struct {
	engine.NopObserver
	Exporter *metrics.Exporter
}

var _ engine.Observer = Metrics{}

// OutputName implements engine.OutputNamer.
func (Metrics) OutputName() (name string, live bool) { return "--metrics-addr", true }

// Request counts one finished request; it resolves no label and
// observes no histogram.
func (o Metrics) Request(ev *engine.RequestEvent) {
	o.Exporter.CountRequest(ev.Outcome, ev.Code)
}

// Timeline merges the second's latency and service-time histograms into
// the exported ones.
func (o Metrics) Timeline(_ result.Second, t *result.Tally) { o.Exporter.ObserveSecond(t) }

// Second sets the gauges from the second's live figures.
func (o Metrics) Second(p *engine.Progress) {
	o.Exporter.SetInFlight(p.InFlight)
	o.Exporter.SetUnsent(p.NotYetDue, p.NotSent)
	o.Exporter.SetRates(p.TargetRPS, p.RPS)
	o.Exporter.SetDispatchLag(p.LagP50, p.LagP99, p.LagMax)
	if p.Target != nil {
		o.Exporter.SetTarget(*p.Target)
	}
	if p.Generator != nil {
		o.Exporter.SetGenerator(*p.Generator)
	}
}
