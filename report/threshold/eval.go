package threshold

import (
	"github.com/vesload/vesload/report/result"
)

// Eval checks the gate against a result. The outcome carries the
// expression as written, the measured value in the metric's unit and that
// unit; a metric the result does not have fails with a Reason instead of
// passing unchecked.
func (t Threshold) Eval(r *result.Result) result.Threshold {
	out := result.Threshold{Expr: t.Expr}
	if out.Expr == "" {
		out.Expr = t.String()
	}
	m, nerr := resolve(t.Metric)
	if nerr != nil {
		out.Reason = nerr.msg
		return out
	}
	out.Unit = m.Unit
	if r == nil {
		out.Reason = "no result to check"
		return out
	}
	v, reason := m.Read(r)
	if reason != "" {
		out.Reason = reason
		return out
	}
	out.Value = v
	out.Pass = t.Op.holds(v, t.Value)
	return out
}

// EvalAll checks every gate, in order, so that reports list them as the
// user wrote them.
func EvalAll(ts []Threshold, r *result.Result) []result.Threshold {
	out := make([]result.Threshold, len(ts))
	for i, t := range ts {
		out[i] = t.Eval(r)
	}
	return out
}

// Passed reports whether every gate passed; no gates means nothing
// failed.
func Passed(outcomes []result.Threshold) bool {
	for _, o := range outcomes {
		if !o.Pass {
			return false
		}
	}
	return true
}
