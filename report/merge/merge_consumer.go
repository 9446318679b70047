package merge

import (
	"fmt"
	"slices"

	"github.com/vesload/vesload/report/result"
)

// isConsumer tells the delivery result of `vesload consume` from a
// generator's result.
func isConsumer(r *result.Result) bool { return r != nil && r.Delivery != nil && r.Delivery.Consumer }

// splitConsumer takes the consumer's result out of the inputs: at most
// one (two consumers of one topic would count every event twice), never
// alone, and never beside generators that followed delivery themselves.
func splitConsumer(rs []*result.Result, names []string, label func(int) string) ([]*result.Result, []string, *result.Result, string, error) {
	ci := slices.IndexFunc(rs, isConsumer)
	if ci < 0 {
		return rs, names, nil, "", nil
	}
	var gens []*result.Result
	var genNames []string
	for i, r := range rs {
		switch {
		case i == ci:
			continue
		case isConsumer(r):
			return nil, nil, nil, "", shardErrorf("%s and %s are both consumers' delivery results: give one consumer per run", label(ci), label(i))
		case r.Delivery != nil:
			return nil, nil, nil, "", shardErrorf("%s followed delivery itself and %s is a consumer's delivery result: give one of them", label(i), label(ci))
		}
		gens = append(gens, r)
		if i < len(names) {
			genNames = append(genNames, names[i])
		}
	}
	if len(gens) == 0 {
		return nil, nil, nil, "", shardErrorf("%s is a consumer's delivery result: merge it with the results of the run's generators", label(ci))
	}
	if len(genNames) != len(gens) {
		genNames = nil
	}
	return gens, genNames, rs[ci], label(ci), nil
}

// joinConsumer adds the consumer's delivery to the merged generators'
// result: expected and accepted are the generators' (events of the
// requests sent and of those answered 2xx), delivered, duplicates,
// ordering and end-to-end time the consumer's, and lost is expected −
// delivered. Without the generators' accepted bitmaps, lost though
// accepted is accepted − delivered: exact when every delivered event was
// accepted, else a lower bound.
func joinConsumer(m, c *result.Result, label string) error {
	if m.Config.RunID != c.Config.RunID {
		return shardErrorf("%s followed run %s but the generators ran %s", label, runName(c), runName(m))
	}
	batch := int64(max(m.Config.Batch, 1))
	d := *c.Delivery
	d.Expected = m.Requests.Sent * batch
	d.Accepted = m.Requests.OK * batch
	d.Lost = max(d.Expected-d.Delivered, 0)
	d.LostThoughAccepted = max(d.Accepted-d.Delivered, 0)
	d.DeliveredThoughRejected = max(d.Delivered-d.Accepted, 0)
	if m.HV != nil {
		// HV-VES answers nothing: every message written is expected,
		// none is accepted (delivery.Config's NoAnswers).
		d.Expected, d.Accepted, d.NoAnswers = m.HV.Sent.Written, 0, true
		d.Lost = max(d.Expected-d.Delivered, 0)
		d.LostThoughAccepted, d.DeliveredThoughRejected = 0, 0
	}
	if !m.Started.IsZero() && !c.Started.IsZero() {
		// The consumer's timeline counts from its own start (the run's,
		// when it was given --start-at): align it on the merged run's.
		off := int64(c.Started.Sub(m.Started) / 1e9)
		d.Timeline = slices.Clone(d.Timeline)
		for i := range d.Timeline {
			d.Timeline[i].T += off
		}
	}
	m.Delivery = &d
	if m.Merged != nil {
		m.Merged.Inputs++
	}
	if c.Interrupted {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s was stopped before the run's end and its grace: lost may count events still on their way", label))
	}
	if d.LostThoughAccepted > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%d events answered 2xx never reached %s within %gs", d.LostThoughAccepted, d.Source, d.GraceS))
	}
	return nil
}
