package compare

import (
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// figure is one row of the comparison: how to read it off a result and
// which way it improves.
type figure struct {
	name    string // field name in the result document
	label   string // human name with unit
	better  Direction
	get     func(*result.Result) (float64, bool)
	missing string // why a run may lack it, after the run's name
}

// figures lists the rows in the registry's order of comparison, the order
// the seed tables use: latency first, then errors, throughput and the
// target's CPU, HV-VES's rates and delivery. A comparison of runs that
// lack a protocol's section leaves its rows out.
func figures() []figure {
	var out []figure
	for _, m := range metric.Compared() {
		read := m.Read
		out = append(out, figure{name: m.Field, label: m.Label, better: direction(m), missing: m.Lacks,
			get: func(r *result.Result) (float64, bool) {
				v, missing := read(r)
				return v, missing == ""
			}})
	}
	return out
}

// direction is the way a metric of the registry improves.
func direction(m metric.Metric) Direction {
	if m.Worse == metric.WorseDown {
		return HigherIsBetter
	}
	return LowerIsBetter
}
