package merge

import (
	"fmt"
	"maps"
	"slices"

	"github.com/vesload/vesload/report/result"
)

// mergeHV merges the HV-VES sections of parallel generators: counts,
// causes and producers add up; the data rates are recomputed from the
// merged bytes and timeline; the write-blocked distribution is the merged
// service-time histogram. Connection set-up and travel times keep only
// what merges without histograms: counts add up, averages are weighted,
// maxima and percentiles are the largest of the inputs (an upper bound). Results with and
// without an HV section do not merge.
func mergeHV(m *result.Result, rs []*result.Result, label func(int) string) error {
	withHV := 0
	for _, r := range rs {
		if r.HV != nil {
			withHV++
		}
	}
	switch {
	case withHV == 0:
		return nil
	case withHV < len(rs):
		for i, r := range rs {
			if r.HV == nil {
				return fmt.Errorf("merge: %s is not an HV-VES run and the others are", label(i))
			}
		}
	}
	h := &result.HV{Addr: rs[0].HV.Addr, TLS: rs[0].HV.TLS, Messages: rs[0].HV.Messages, SizeBytes: rs[0].HV.SizeBytes,
		IntervalS: rs[0].HV.IntervalS, Domain: rs[0].HV.Domain, NotSentBy: map[string]int64{},
		Disconnects: map[string]int64{}, DialErrors: map[string]int64{}, WriteBlocked: m.Service}
	for _, r := range rs {
		addHV(h, r.HV)
	}
	if m.DurationS > 0 {
		h.MBps = float64(h.Sent.Bytes) / m.DurationS / 1e6
	}
	for _, s := range m.Timeline {
		h.PeakMBps = max(h.PeakMBps, float64(s.BytesSent)/1e6)
	}
	if slices.ContainsFunc(rs, (*result.Result).IsShard) {
		h.Receiver = RunReceiver(rs, h.Sent.Written)
		if w := receiverWarning(h.Receiver, h.Sent.Written); w != "" {
			m.Warnings = append(m.Warnings, w)
		}
	} else {
		h.Receiver = mergeReceivers(rs)
	}
	m.HV = h
	return nil
}

// RunReceiver is the receiver's view of a sharded run. The receiver (the
// collector's metrics, the emulator) counts what all the shards sent, so
// a shard's view is the run's, not a share of it: it is taken once, from
// the shard that read it last (the most received; shard 0 alone follows
// the collector's counters), and its losses are counted against written,
// the messages all the shards wrote. Nil when no shard has a receiver
// view.
func RunReceiver(rs []*result.Result, written int64) *result.HVReceiver {
	var best *result.HVReceiver
	for _, r := range rs {
		if rc := r.HV.Receiver; rc != nil && (best == nil || rc.Received > best.Received) {
			best = rc
		}
	}
	if best == nil {
		return nil
	}
	out := *best
	out.Dropped = maps.Clone(best.Dropped)
	if best.Duplicates != nil {
		out.Duplicates = new(*best.Duplicates)
	}
	out.Lost, out.Extra = max(written-out.Received, 0), max(out.Received-written, 0)
	return &out
}

// receiverWarning says when the receiver did not count what the shards
// wrote: fewer is loss on the way, more is traffic from elsewhere (another
// run, a generator outside the merge).
func receiverWarning(rc *result.HVReceiver, written int64) string {
	switch {
	case rc == nil || rc.Received == written:
		return ""
	case rc.Received < written:
		return fmt.Sprintf("the receiver counted %d messages of the %d the shards wrote: %d lost", rc.Received, written, written-rc.Received)
	}
	return fmt.Sprintf("the receiver counted %d messages but the shards wrote %d: it also counted traffic from elsewhere", rc.Received, written)
}

func addHV(h, o *result.HV) {
	h.Producers += o.Producers
	if o.Messages != h.Messages {
		h.Messages = 0 // generators with different shares: no single figure
	}
	h.Sent.Scheduled += o.Sent.Scheduled
	h.Sent.Sent += o.Sent.Sent
	h.Sent.Written += o.Sent.Written
	h.Sent.Failed += o.Sent.Failed
	h.Sent.NotSent += o.Sent.NotSent
	h.Sent.Bytes += o.Sent.Bytes
	h.Connects += o.Connects
	h.Reconnects += o.Reconnects
	h.WrittenIntoBroken += o.WrittenIntoBroken
	addInto(h.NotSentBy, o.NotSentBy)
	addInto(h.Disconnects, o.Disconnects)
	addInto(h.DialErrors, o.DialErrors)
	h.Connect = upperBound(h.Connect, o.Connect)
	h.Handshake = upperBound(h.Handshake, o.Handshake)
	h.ByProducer = append(h.ByProducer, o.ByProducer...)
}

// upperBound combines two summaries without their histograms: counts add
// up, every statistic is the larger of the two.
func upperBound(a, b result.Summary) result.Summary {
	if a.Count == 0 {
		return b
	}
	if b.Count == 0 {
		return a
	}
	avg := (a.Avg*float64(a.Count) + b.Avg*float64(b.Count)) / float64(a.Count+b.Count)
	return result.Summary{Count: a.Count + b.Count, Min: min(a.Min, b.Min), Avg: avg, P50: max(a.P50, b.P50),
		P90: max(a.P90, b.P90), P95: max(a.P95, b.P95), P99: max(a.P99, b.P99), P999: max(a.P999, b.P999), Max: max(a.Max, b.Max)}
}

// mergeReceivers adds up the receivers' views when every input has one.
func mergeReceivers(rs []*result.Result) *result.HVReceiver {
	var out *result.HVReceiver
	var travelSum float64 // average travel time × messages, to weigh the averages
	for _, r := range rs {
		rc := r.HV.Receiver
		if rc == nil {
			return nil
		}
		if out == nil {
			out = &result.HVReceiver{Source: rc.Source, Dropped: map[string]int64{}}
			if rc.Duplicates != nil {
				out.Duplicates = new(int64(0))
			}
		}
		out.Received += rc.Received
		out.Accepted += rc.Accepted
		out.Lost += rc.Lost
		addInto(out.Dropped, rc.Dropped)
		if out.Duplicates != nil && rc.Duplicates != nil {
			*out.Duplicates += *rc.Duplicates
		} else {
			out.Duplicates = nil
		}
		travelSum += rc.TravelAvgMs * float64(rc.Received)
		out.TravelP50Ms = max(out.TravelP50Ms, rc.TravelP50Ms)
		out.TravelP99Ms = max(out.TravelP99Ms, rc.TravelP99Ms)
		out.TravelMaxMs = max(out.TravelMaxMs, rc.TravelMaxMs)
	}
	if out.Received > 0 {
		out.TravelAvgMs = travelSum / float64(out.Received)
	}
	return out
}

func addInto(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}
