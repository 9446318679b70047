package metric

import "github.com/vesload/vesload/report/result"

// option adds to a declaration what only some metrics have (a row in
// compare's table, a place in a history, a per-second figure), written
// beside the declaration it belongs to.
type option func(m *Metric)

// declare applies opts to m.
func declare(m Metric, opts ...option) Metric {
	for _, o := range opts {
		o(&m)
	}
	return m
}

// row puts the metric at place n of compare's table, under field and
// label; lacks is why a run may lack it.
func row(n int, field, label, lacks string) option {
	return func(m *Metric) { m.Row, m.Field, m.Label, m.Lacks = n, field, label, lacks }
}

// trend puts the metric at place n among a history's default series.
func trend(n int) option { return func(m *Metric) { m.Trend = n } }

// second says how the timeline carries the metric per second.
func second(ps PerSecond) option { return func(m *Metric) { m.Second = &ps } }

// gauge makes a count a gauge: a figure such as MB/s that a gate reads as
// a plain number.
func gauge() option { return func(m *Metric) { m.Kind = Gauge } }

// answered tells a second in which requests were answered: only those
// have latency figures.
func answered(s result.Second) bool { return s.OK+s.Errors > 0 }

// whenAnswered is a per-second figure measured in answered seconds.
func whenAnswered(label string, of func(s result.Second) float64) PerSecond {
	return PerSecond{Label: label, Of: func(s result.Second) (float64, bool) { return of(s), answered(s) }}
}

// everySecond is a per-second figure every second has.
func everySecond(label string, of func(s result.Second) float64) PerSecond {
	return PerSecond{Label: label, Of: func(s result.Second) (float64, bool) { return of(s), true }}
}
