package result

import (
	"fmt"
	"maps"
	"math"
)

// The parts of a result document that break a run down, a request kind
// of a mix and a step of a closed-model ramp, are Tallies written out and
// read back here, so that the engine that writes them and the merge that
// adds shards' parts up count them the same way.

// RequestStats writes t as the share of request kind name in a mixed run:
// the sent requests and their outcomes, the error classes and the
// latency, with the latency distribution encoded by enc so that shards'
// kinds merge without loss. A kind keeps no service-time distribution,
// only its summary. On an error the counts are written, the histogram not.
func (t *Tally) RequestStats(name string, weight int, enc *HistogramEncoder) (RequestStats, error) {
	q := RequestStats{
		Name:     name,
		Weight:   weight,
		Requests: Requests{Sent: t.Sent, OK: t.OK, Errors: t.Errors},
		Latency:  Summarize(t.Latency),
		Service:  Summarize(t.Service),
	}
	if len(t.Classes) > 0 {
		q.Errors = maps.Clone(t.Classes)
	}
	var err error
	if q.Histogram, err = enc.Encode(t.Latency); err != nil {
		err = fmt.Errorf("by_request.%s: %w", name, err)
	}
	return q, err
}

// Tally reads a request kind's share back, the inverse of
// Tally.RequestStats: counts, error classes and the latency distribution.
func (q *RequestStats) Tally() (Tally, error) {
	t := Tally{Sent: q.Requests.Sent, OK: q.Requests.OK, Errors: q.Requests.Errors, Classes: maps.Clone(q.Errors)}
	var err error
	if t.Latency, err = ReadHistogram(q.Histogram, q.Latency, "by_request."+q.Name); err != nil {
		return Tally{}, err
	}
	return t, nil
}

// Step writes t as the closed-model step frame (its concurrency, start
// and length): the sent requests and their outcomes, the rate they were
// sent at and the latency, with the distribution encoded by enc. On an
// error the counts are written, the histogram not.
func (t *Tally) Step(frame Step, enc *HistogramEncoder) (Step, error) {
	s := frame
	s.Sent, s.OK, s.Errors = t.Sent, t.OK, t.Errors
	s.RPS = 0
	if s.DurationS > 0 {
		s.RPS = math.Round(float64(t.Sent)/s.DurationS*100) / 100
	}
	s.Latency = Summarize(t.Latency)
	var err error
	if s.Histogram, err = enc.Encode(t.Latency); err != nil {
		err = fmt.Errorf("step at %gs: %w", s.StartS, err)
	}
	return s, err
}

// Tally reads a step back, the inverse of Tally.Step: counts and the
// latency distribution.
func (s *Step) Tally() (Tally, error) {
	t := Tally{Sent: s.Sent, OK: s.OK, Errors: s.Errors}
	var err error
	if t.Latency, err = ReadHistogram(s.Histogram, s.Latency, fmt.Sprintf("step at %gs", s.StartS)); err != nil {
		return Tally{}, err
	}
	return t, nil
}
