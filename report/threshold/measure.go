package threshold

import (
	"errors"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// Measure is one metric of the grammar, resolved by name, for judges
// other than Eval: a regression gate of vesload compare reads the same
// figures under the same names, so that "p99" means one thing whether
// it is held to 500 ms or to the baseline plus 10 %.
type Measure struct{ m metric.Metric }

// MeasureError is a metric name that did not resolve. Offset is where in
// the name (in characters) the mistake starts, so that a caller can
// point at the column of its own expression.
type MeasureError struct {
	Offset int
	Msg    string
}

// Error returns the message alone; the caller adds its expression.
func (e *MeasureError) Error() string { return e.Msg }

// LookupMeasure resolves any accepted spelling of a metric name (case is
// ignored by the caller's lower-casing) to its Measure.
func LookupMeasure(name string) (Measure, error) {
	m, err := resolve(name)
	if err != nil {
		return Measure{}, &MeasureError{Offset: err.offset, Msg: err.msg}
	}
	return Measure{m}, nil
}

// Name is the canonical name (p999 for p(99.9), …).
func (m Measure) Name() string { return m.m.Name }

// Unit is the unit values are measured in: ms, %, B, /s, or empty for
// counts.
func (m Measure) Unit() string { return m.m.Unit }

// Metric is the registry's declaration of the metric: its direction,
// its row in a comparison, its per-second figure.
func (m Measure) Metric() metric.Metric { return m.m }

// IsLatency tells a time (in ms) from the other figures: only times
// take a tolerance in time units.
func (m Measure) IsLatency() bool { return m.m.Kind == metric.Latency }

// IsPercent tells a percentage (the error rate, CPU): only those take
// a tolerance in percentage points.
func (m Measure) IsPercent() bool { return m.m.Kind == metric.Percent || m.m.Kind == metric.Ratio }

// Of reads the figure off a result, or says why the result lacks it.
func (m Measure) Of(r *result.Result) (float64, string) {
	if r == nil {
		return 0, "no result"
	}
	return m.m.Read(r)
}

// Absolute converts a number written with one of the metric's own units
// ("5" with "ms", "2" with "s", "100" with "" for a count) into the
// metric's unit, with the grammar's rules and messages. Percentages are
// refused here: "%" on a gate means something else to each caller.
func (m Measure) Absolute(num, unit string) (float64, error) {
	if m.IsPercent() {
		return 0, errors.New("a percentage takes no absolute unit")
	}
	v, err := convert(m.m, num, unit, false)
	if err != nil {
		return 0, errors.New(err.msg)
	}
	return v, nil
}
