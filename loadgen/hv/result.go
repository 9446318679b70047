package hv

import (
	"fmt"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// Protocol is the result document's config.protocol for HV-VES runs.
const Protocol = result.ProtocolHV

// Totals adds up the producers' counts.
func (o *Outcome) Totals() Counts {
	var c Counts
	for _, r := range o.recs {
		c.add(r.counts)
	}
	return c
}

// Result turns the outcome into the result document. The caller adds
// tool, thresholds, the receiver's view and anything else it knows.
func (o *Outcome) Result() (*result.Result, error) {
	cfg := o.Config
	tot := o.Totals()
	lat, blocked, lag := merged(o.recs, func(r *recorder) *hdrhistogram.Histogram { return r.latency }),
		merged(o.recs, func(r *recorder) *hdrhistogram.Histogram { return r.blocked }),
		merged(o.recs, func(r *recorder) *hdrhistogram.Histogram { return r.lag })
	var enc result.HistogramEncoder // one compressor for both histograms
	latEnc, err := enc.Encode(lat)
	if err != nil {
		return nil, err
	}
	svcEnc, err := enc.Encode(blocked)
	if err != nil {
		return nil, err
	}
	elapsed := o.End.Sub(o.Start).Seconds()
	scheme := "tcp://"
	if cfg.TLS != nil {
		scheme = "tls://"
	}
	// A message due while its producer had no connection failed without
	// being sent: an error of class disconnected, as pool_exhausted is
	// for REST runs, and not a message cut off by a stop (not_sent).
	var disconnected int64
	for _, rec := range o.recs {
		disconnected += rec.notSentBy[NotSentDisconnected]
	}
	producers := len(cfg.mine())
	target := float64(producers) / cfg.Interval.Seconds()
	r := &result.Result{
		Schema: result.Schema,
		Config: result.RunConfig{Protocol: Protocol, URL: scheme + cfg.Addr, RPS: target,
			Shape:     fmt.Sprintf("%d producers × %d every %s", producers, cfg.Messages, cfg.Interval),
			DurationS: (cfg.Span() + cfg.Interval).Seconds(), Pool: producers, KeepAlive: true,
			Event: domain(cfg), EventSize: cfg.Size, RunID: cfg.RunID, TimeoutS: cfg.WriteTimeout.Seconds()},
		Started: o.Start, Ended: o.End, DurationS: elapsed, Interrupted: o.Interrupted,
		Requests: result.Requests{Scheduled: tot.Scheduled, Sent: tot.Sent, OK: tot.Written,
			Errors: tot.Failed + disconnected, NotSent: tot.NotSent - disconnected},
		Errors:     map[string]int64{},
		RPS:        result.Rate{Target: target, Achieved: rate(tot.Written, elapsed)},
		Latency:    result.Summarize(lat),
		Service:    result.Summarize(blocked),
		Bytes:      result.Bytes{Sent: tot.Bytes},
		Histograms: result.Histograms{Latency: latEnc, Service: svcEnc},
	}
	lagS := result.Summarize(lag)
	r.Generator = result.Generator{DispatchLagP50Ms: lagS.P50, DispatchLagP99Ms: lagS.P99,
		DispatchLagMaxMs: lagS.Max, MaxInFlight: int64(producers), Saturated: lagS.P99 > 5}
	r.Timeline = o.timeline()
	r.Shard = o.shardInfo()
	r.HV = o.hvSection(tot, elapsed, r.Timeline, result.Summarize(blocked))
	for _, rec := range o.recs {
		for k, v := range rec.drops {
			r.Errors[k] += v
		}
	}
	if disconnected > 0 {
		r.Errors[result.ClassDisconnected] += disconnected
	}
	return r, nil
}

func domain(cfg Config) string {
	if cfg.Domain == "" {
		return "perf3gpp"
	}
	return cfg.Domain
}

func rate(n int64, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return float64(n) / seconds
}

// merged adds up one histogram of every producer.
func merged(recs []*recorder, pick func(*recorder) *hdrhistogram.Histogram) *hdrhistogram.Histogram {
	h := result.NewHistogram()
	for _, r := range recs {
		h.Merge(pick(r))
	}
	return h
}

// timeline adds the producers' seconds up.
func (o *Outcome) timeline() []result.Second {
	n := 0
	for _, r := range o.recs {
		n = max(n, len(r.seconds))
	}
	tl := make([]result.Second, n)
	for i := range tl {
		tl[i].T = int64(i)
	}
	for _, r := range o.recs {
		for i, s := range r.seconds {
			tl[i].Scheduled += s.scheduled
			tl[i].Sent += s.written + s.failed
			tl[i].OK += s.written
			tl[i].Errors += s.failed
			tl[i].BytesSent += s.bytes
		}
	}
	for len(tl) > 0 && tl[len(tl)-1].Scheduled == 0 && tl[len(tl)-1].Sent == 0 {
		tl = tl[:len(tl)-1] // the spare seconds kept for late writes
	}
	return tl
}

func (o *Outcome) hvSection(tot Counts, elapsed float64, tl []result.Second, blocked result.Summary) *result.HV {
	cfg := o.Config
	hv := &result.HV{
		Addr: cfg.Addr, TLS: cfg.TLS != nil, Producers: len(cfg.mine()), Messages: cfg.Messages,
		SizeBytes: cfg.Size, IntervalS: cfg.Interval.Seconds(), Domain: domain(cfg),
		Sent: hvCounts(tot), NotSentBy: map[string]int64{}, Disconnects: map[string]int64{},
		DialErrors: map[string]int64{}, WriteBlocked: blocked,
		MBps: rate(tot.Bytes, elapsed) / 1e6,
	}
	hv.PeakMBps = peakRate(tl, elapsed) / 1e6
	connect := merged(o.recs, func(r *recorder) *hdrhistogram.Histogram { return r.connect })
	hs := merged(o.recs, func(r *recorder) *hdrhistogram.Histogram { return r.handshake })
	hv.Connect, hv.Handshake = result.Summarize(connect), result.Summarize(hs)
	for i, r := range o.recs {
		hv.Connects += r.connects
		hv.Reconnects += r.reconnects
		addAll(hv.NotSentBy, r.notSentBy)
		addAll(hv.Disconnects, r.drops)
		addAll(hv.DialErrors, r.dialErrors)
		hv.ByProducer = append(hv.ByProducer, result.HVProducer{
			Source: cfg.Source(i).SourceName, Counts: hvCounts(r.counts), Reconnects: r.reconnects})
	}
	return hv
}

func addAll(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}

func hvCounts(c Counts) result.HVCounts {
	return result.HVCounts{Scheduled: c.Scheduled, Sent: c.Sent, Written: c.Written,
		Failed: c.Failed, NotSent: c.NotSent, Bytes: c.Bytes}
}

// peakRate is the highest data rate (bytes/s) of the run's seconds, with
// the same span as the average (total bytes / elapsed): the partial last
// second is joined to the one before it, and a run shorter than a second
// has one period, its whole span. Every period is then at least a second
// long (no sliver of a second can spike) and the periods cover exactly
// the elapsed time, so the average is a weighted mean of their rates and
// the peak is never below it.
func peakRate(tl []result.Second, elapsed float64) float64 {
	if elapsed <= 0 {
		return 0
	}
	whole := int(elapsed) // seconds fully inside the run
	if whole == 0 {
		var total int64
		for _, s := range tl {
			total += s.BytesSent
		}
		return float64(total) / elapsed
	}
	var peak float64
	var last int64
	for i, s := range tl {
		if i < whole-1 {
			peak = max(peak, float64(s.BytesSent))
			continue
		}
		last += s.BytesSent
	}
	return max(peak, float64(last)/(elapsed-float64(whole-1)))
}
