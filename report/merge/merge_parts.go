package merge

import (
	"fmt"

	"github.com/vesload/vesload/report/result"
)

// mergeParts merges the per-kind breakdown of a request mix and the steps
// of a closed-model ramp, when every input has the same kinds or steps
// (the shards of one run do): each part is read back as a Tally, the
// Tallies added, and the sum written out the way the engine writes a
// part; a step's concurrency is summed beside it. Inputs whose kinds or
// steps differ, or lack a histogram, leave the merged result without that
// part rather than with a guess.
func mergeParts(m *result.Result, rs []*result.Result, label func(int) string, enc *result.HistogramEncoder) error {
	var err error
	if m.ByRequest, err = mergeByRequest(rs, label, enc); err != nil {
		return err
	}
	m.Steps, err = mergeSteps(rs, label, enc)
	return err
}

func mergeByRequest(rs []*result.Result, label func(int) string, enc *result.HistogramEncoder) ([]result.RequestStats, error) {
	first := rs[0].ByRequest
	if len(first) == 0 {
		return nil, nil
	}
	out := make([]result.RequestStats, len(first))
	for k, q := range first {
		var sum result.Tally
		for i, r := range rs {
			if len(r.ByRequest) != len(first) || r.ByRequest[k].Name != q.Name || r.ByRequest[k].Histogram == "" {
				return nil, nil
			}
			t, err := r.ByRequest[k].Tally()
			if err != nil {
				return nil, labelled(label(i), err)
			}
			sum.Merge(&t)
		}
		// A kind keeps no service-time distribution, so the sum has none
		// and the merged kind's service summary is empty (count 0), not a
		// guess.
		var err error
		if out[k], err = sum.RequestStats(q.Name, q.Weight, enc); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	return out, nil
}

func mergeSteps(rs []*result.Result, label func(int) string, enc *result.HistogramEncoder) ([]result.Step, error) {
	first := rs[0].Steps
	if len(first) == 0 {
		return nil, nil
	}
	out := make([]result.Step, len(first))
	for s, st := range first {
		var sum result.Tally
		frame := result.Step{StartS: st.StartS, DurationS: st.DurationS}
		for i, r := range rs {
			if len(r.Steps) != len(first) || r.Steps[s].StartS != st.StartS || r.Steps[s].Histogram == "" {
				return nil, nil
			}
			t, err := r.Steps[s].Tally()
			if err != nil {
				return nil, labelled(label(i), err)
			}
			sum.Merge(&t)
			frame.Concurrency += r.Steps[s].Concurrency
		}
		var err error
		if out[s], err = sum.Step(frame, enc); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	return out, nil
}
