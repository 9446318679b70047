package merge

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Merge combines the results of generators that ran in parallel against
// the same target over the same time window into the result one bigger
// generator would have written: counts, errors and bytes are summed, the
// HDR histograms merged and the latency summaries read off the merged
// histograms, and the per-second timelines summed second by second on
// the wall clock (a generator that started two seconds late adds into
// seconds 2, 3, …). The window runs from the earliest start to the latest
// end.
//
// Some figures cannot be summed and are combined as follows: the target's
// CPU and memory (the same system seen by every generator) take the mean
// of the averages and the maximum of the maxima; the generators' own
// health takes the busiest generator (the peaks of requests in flight are
// summed, an upper bound), and the merged generator is saturated when any
// was. Per-second percentiles are approximations,
// since no per-second histograms are kept: p50 is the mean weighted by
// requests sent, p99 and max the maximum over generators. Threshold
// outcomes are dropped: they were evaluated per generator and must be
// evaluated again on the merged figures by the caller.
//
// names label the inputs in errors and warnings (file names, usually);
// without them the inputs are "result 1", "result 2", …. Merge refuses
// results that did not overlap in time (repetitions are compared, not
// merged) and results that recorded latencies without keeping their
// histograms. The inputs are not changed.
func Results(rs []*result.Result, names []string) (*result.Result, error) {
	if len(rs) == 0 {
		return nil, errors.New("merge: no results")
	}
	if len(names) > 0 && len(names) != len(rs) {
		return nil, fmt.Errorf("merge: %d results but %d names", len(rs), len(names))
	}
	label := func(i int) string {
		if len(names) > 0 {
			return names[i]
		}
		return fmt.Sprintf("result %d", i+1)
	}
	for i, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("merge: %s is missing", label(i))
		}
	}
	if err := checkOverlap(rs, label); err != nil {
		return nil, err
	}
	m := mergeHeader(rs)
	var enc result.HistogramEncoder // one compressor for every histogram of the merge
	if err := mergeTallies(m, rs, label, &enc); err != nil {
		return nil, err
	}
	mergeResources(m, rs)
	var err error
	if m.Delivery, err = mergeDelivery(rs, label, &enc); err != nil {
		return nil, err
	}
	m.Timeline = mergeTimelines(rs, m.Started)
	if err := mergeParts(m, rs, label, &enc); err != nil {
		return nil, err
	}
	m.Warnings = mergeWarnings(rs, label)
	if err := mergeHV(m, rs, label); err != nil {
		return nil, err
	}
	return m, nil
}

// checkOverlap refuses inputs whose time windows are disjoint from the
// first one's: merging sequential runs would sum rates that never
// coexisted. Results without timestamps are taken on trust.
func checkOverlap(rs []*result.Result, label func(int) string) error {
	first := rs[0]
	if first.Started.IsZero() || first.Ended.IsZero() {
		return nil
	}
	for i, r := range rs[1:] {
		if r.Started.IsZero() || r.Ended.IsZero() {
			continue
		}
		if r.Started.After(first.Ended) || r.Ended.Before(first.Started) {
			return fmt.Errorf("merge: %s ran %s–%s, which does not overlap %s (%s–%s): merge combines generators that ran at the same time; compare repetitions instead",
				label(i+1), clock(r.Started), clock(r.Ended), label(0), clock(first.Started), clock(first.Ended))
		}
	}
	return nil
}

func clock(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// mergeHeader fills the identity, configuration and time window.
func mergeHeader(rs []*result.Result) *result.Result {
	first := rs[0]
	m := &result.Result{
		Schema: result.Schema,
		Tool:   first.Tool,
		Config: first.Config,
	}
	m.Config.Headers = maps.Clone(first.Config.Headers)
	m.Config.Labels = maps.Clone(first.Config.Labels)
	m.Config.Thresholds = append([]string(nil), first.Config.Thresholds...)
	m.Config.AbortOnFail = append([]string(nil), first.Config.AbortOnFail...)
	m.Config.RPS, m.Config.Pool = 0, 0
	for _, r := range rs {
		m.Config.RPS += r.Config.RPS
		m.Config.Pool += r.Config.Pool
		m.Config.DurationS = math.Max(m.Config.DurationS, r.Config.DurationS)
		m.Interrupted = m.Interrupted || r.Interrupted
		if m.AbortedBy == "" {
			m.AbortedBy = r.AbortedBy // a generator stopped early stops the merged run's verdict too
		}
		if m.StoppedAtStart == "" {
			m.StoppedAtStart = r.StoppedAtStart
		}
		if !r.Started.IsZero() && (m.Started.IsZero() || r.Started.Before(m.Started)) {
			m.Started = r.Started
		}
		if r.Ended.After(m.Ended) {
			m.Ended = r.Ended
		}
	}
	m.Config.Shape = mergedShape(rs)
	m.DurationS = m.Ended.Sub(m.Started).Seconds()
	if m.Started.IsZero() || m.Ended.IsZero() || m.DurationS < 0 {
		m.DurationS = 0
		for _, r := range rs {
			m.DurationS = math.Max(m.DurationS, r.DurationS)
		}
	}
	return m
}

// mergedShape describes the load of parallel generators, so that the
// header does not read "constant 50/s" beside a summed target of 100 rps:
// "2 generators × constant 50/s for 10m" when they ran the same shape,
// their shapes one after the other otherwise. One result keeps its own.
func mergedShape(rs []*result.Result) string {
	if len(rs) == 1 {
		return rs[0].Config.Shape
	}
	shapes := make([]string, len(rs))
	same := true
	for i, r := range rs {
		shapes[i] = r.Config.Shape
		if shapes[i] == "" {
			shapes[i] = "constant"
		}
		same = same && shapes[i] == shapes[0]
	}
	if same {
		return fmt.Sprintf("%d generators × %s", len(rs), shapes[0])
	}
	return fmt.Sprintf("%d generators (%s)", len(rs), strings.Join(shapes, "; "))
}

// mergeTallies adds up the accounting of parallel generators as the
// engine counts (result.Tally) and sums their target and achieved rates.
func mergeTallies(m *result.Result, rs []*result.Result, label func(int) string, enc *result.HistogramEncoder) error {
	var total result.Tally
	for i, r := range rs {
		t, err := result.TallyOf(r)
		if err != nil {
			return labelled(label(i), err)
		}
		total.Merge(&t)
		m.RPS.Target += r.RPS.Target
		m.RPS.Achieved += r.RPS.Achieved
	}
	m.RPS.Achieved = math.Round(m.RPS.Achieved*100) / 100
	if err := total.Document(m, enc); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}

// labelled names the input an error of reading it back came from.
func labelled(name string, err error) error {
	if errors.Is(err, result.ErrMissingHistogram) {
		return fmt.Errorf("merge: %s %w", name, err) // "result 2 has 10 latency values but …"
	}
	return fmt.Errorf("merge: %s: %w", name, err)
}

// mergeResources combines target and generator figures, which describe
// one shared target and several separate generators.
func mergeResources(m *result.Result, rs []*result.Result) {
	var sources []string
	n := 0
	for _, r := range rs {
		g := r.Generator
		mg := &m.Generator
		mg.CPUAvgPct = math.Max(mg.CPUAvgPct, g.CPUAvgPct)
		mg.CPUMaxPct = math.Max(mg.CPUMaxPct, g.CPUMaxPct)
		mg.RSSMaxBytes = max(mg.RSSMaxBytes, g.RSSMaxBytes)
		mg.DispatchLagP50Ms = math.Max(mg.DispatchLagP50Ms, g.DispatchLagP50Ms)
		mg.DispatchLagP99Ms = math.Max(mg.DispatchLagP99Ms, g.DispatchLagP99Ms)
		mg.DispatchLagMaxMs = math.Max(mg.DispatchLagMaxMs, g.DispatchLagMaxMs)
		mg.Saturated = mg.Saturated || g.Saturated
		mg.MaxInFlight += g.MaxInFlight

		t := r.Target
		if t == nil {
			continue
		}
		if m.Target == nil {
			m.Target = &result.Target{}
		}
		n++
		m.Target.CPUAvgPct += t.CPUAvgPct
		m.Target.CPUMaxPct = math.Max(m.Target.CPUMaxPct, t.CPUMaxPct)
		m.Target.RSSMaxBytes = max(m.Target.RSSMaxBytes, t.RSSMaxBytes)
		m.Target.SampleErrors += t.SampleErrors
		m.Target.Exited = m.Target.Exited || t.Exited
		if t.LastError != "" {
			m.Target.LastError = t.LastError
		}
		if t.Source != "" && !slices.Contains(sources, t.Source) {
			sources = append(sources, t.Source)
		}
		for _, s := range t.Series {
			if !slices.Contains(m.Target.Series, s) {
				m.Target.Series = append(m.Target.Series, s)
			}
		}
		mergeExtra(m.Target, t.Extra)
	}
	if m.Target != nil {
		m.Target.CPUAvgPct /= float64(n)
		m.Target.Source = strings.Join(sources, ", ")
	}
}

// mergeExtra combines named target series: sample-weighted mean of the
// averages, maximum of the maxima.
func mergeExtra(dst *result.Target, extra map[string]result.SeriesStats) {
	for k, s := range extra {
		if dst.Extra == nil {
			dst.Extra = map[string]result.SeriesStats{}
		}
		d := dst.Extra[k]
		if total := d.Samples + s.Samples; total > 0 {
			d.Avg = (d.Avg*float64(d.Samples) + s.Avg*float64(s.Samples)) / float64(total)
		}
		if d.Samples == 0 || s.Max > d.Max {
			d.Max = s.Max
		}
		d.Samples += s.Samples
		dst.Extra[k] = d
	}
}

// mergeTimelines sums the per-second timelines on the wall clock: each
// input's second t lands at t plus its start offset from start.
func mergeTimelines(rs []*result.Result, start time.Time) []result.Second {
	byT := map[int64]*result.Second{}
	weight := map[int64]int64{} // requests behind the weighted p50
	for _, r := range rs {
		var off int64
		if !start.IsZero() && !r.Started.IsZero() {
			off = int64(r.Started.Sub(start) / time.Second)
		}
		for _, s := range r.Timeline {
			t := s.T + off
			d := byT[t]
			if d == nil {
				d = &result.Second{T: t}
				byT[t] = d
			}
			addSecond(d, s)
			w := max(s.Sent, 1)
			d.P50Ms += s.P50Ms * float64(w)
			d.AvgMs += s.AvgMs * float64(s.Sent) // every request sent has one latency
			weight[t] += w
		}
	}
	out := make([]result.Second, 0, len(byT))
	for t, d := range byT {
		d.P50Ms = math.Round(d.P50Ms/float64(weight[t])*1000) / 1000
		if d.Sent > 0 {
			d.AvgMs = math.Round(d.AvgMs/float64(d.Sent)*1000) / 1000
		}
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// addSecond adds one generator's second into d (all but p50 and the
// mean, which the caller weights).
func addSecond(d *result.Second, s result.Second) {
	d.Scheduled += s.Scheduled
	d.Sent += s.Sent
	d.OK += s.OK
	d.Errors += s.Errors
	d.PoolExhausted += s.PoolExhausted
	d.BytesSent += s.BytesSent
	for k, v := range s.ErrorsByClass {
		if d.ErrorsByClass == nil {
			d.ErrorsByClass = map[string]int64{}
		}
		d.ErrorsByClass[k] += v
	}
	d.P95Ms = math.Max(d.P95Ms, s.P95Ms)
	d.P99Ms = math.Max(d.P99Ms, s.P99Ms)
	d.MaxMs = math.Max(d.MaxMs, s.MaxMs)
	d.TargetCPUPct = math.Max(d.TargetCPUPct, s.TargetCPUPct)
	d.TargetRSSBytes = max(d.TargetRSSBytes, s.TargetRSSBytes)
	d.GenCPUPct = math.Max(d.GenCPUPct, s.GenCPUPct)
	d.GenSchedP99Ms = math.Max(d.GenSchedP99Ms, s.GenSchedP99Ms)
}

// mergeWarnings keeps every input's warnings, labelled with the input
// when there is more than one, and says how the timeline was combined.
func mergeWarnings(rs []*result.Result, label func(int) string) []string {
	var out []string
	for i, r := range rs {
		for _, w := range r.Warnings {
			if len(rs) > 1 {
				w = label(i) + ": " + w
			}
			out = append(out, w)
		}
	}
	if len(rs) > 1 {
		out = append(out, fmt.Sprintf("merged from %d generators: per-second p50 is a weighted mean and p95 and p99 the maximum over generators (approximations); the per-second mean is exact", len(rs)))
	}
	return out
}
