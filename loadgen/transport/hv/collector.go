package hv

import (
	"context"
	"fmt"
	"maps"
	"net/http"

	dto "github.com/prometheus/client_model/go"

	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// The HV-VES collector's own metric names (its /monitoring/prometheus).
const (
	metricReceived   = "hvves_messages_received_total"
	metricSent       = "hvves_messages_sent_total"
	metricDropped    = "hvves_messages_dropped_cause_total"
	metricTravel     = "hvves_messages_to_collector_travel_time_seconds"
	metricTravelMax  = "hvves_messages_to_collector_travel_time_seconds_max"
	metricDuplicates = "hvves_emulator_duplicate_event_ids_total" // the emulator only
	metricStart      = "process_start_time_seconds"               // client_golang, Micrometer
)

// CollectorCounters are the collector's cumulative counters at one
// scrape; the difference of two scrapes is what a run caused.
type CollectorCounters struct {
	Received, Sent float64
	Dropped        map[string]float64
	// TravelSum and TravelCount are the travel-time summary's (or
	// histogram's) sum in seconds and count; TravelMax its max when the
	// collector exposes one (Micrometer does).
	TravelSum, TravelCount, TravelMax float64
	// TravelQuantiles are the travel-time summary's own quantiles in
	// seconds, by quantile (0.5, 0.99), when it exposes them.
	TravelQuantiles            map[float64]float64
	HasReceived, HasDuplicates bool
	Duplicates                 float64
	// StartTime is the collector process's start, in seconds since the
	// epoch, when it publishes process_start_time_seconds: a change says
	// the collector restarted and its counters began again.
	StartTime float64
}

// ParseCollectorMetrics reads the collector's counters from an exposition
// in the format contentType names (text, OpenMetrics or protobuf; text
// when it names none). Series it does not find stay zero; HasReceived
// says whether the endpoint is an HV-VES collector's at all.
func ParseCollectorMetrics(contentType string, body []byte) (CollectorCounters, error) {
	fams, err := sample.Decode(contentType, body)
	if err != nil {
		return CollectorCounters{}, fmt.Errorf("parse collector metrics: %w", err)
	}
	return collectorCounters(fams), nil
}

// collectorCounters picks the collector's counters out of decoded families.
func collectorCounters(fams []*dto.MetricFamily) CollectorCounters {
	c := CollectorCounters{Dropped: map[string]float64{}}
	for _, mf := range fams {
		for _, m := range mf.GetMetric() {
			switch name := mf.GetName(); name {
			case metricTravel:
				if s := m.GetSummary(); s != nil {
					c.TravelSum, c.TravelCount = c.TravelSum+s.GetSampleSum(), c.TravelCount+float64(s.GetSampleCount())
					for _, q := range s.GetQuantile() {
						if c.TravelQuantiles == nil {
							c.TravelQuantiles = map[float64]float64{}
						}
						c.TravelQuantiles[q.GetQuantile()] = max(c.TravelQuantiles[q.GetQuantile()], q.GetValue())
					}
				} else if h := m.GetHistogram(); h != nil {
					c.TravelSum, c.TravelCount = c.TravelSum+h.GetSampleSum(), c.TravelCount+float64(h.GetSampleCount())
				}
			case metricTravel + "_sum": // without TYPE lines the parts are untyped families of their own
				c.TravelSum += value(m)
			case metricTravel + "_count":
				c.TravelCount += value(m)
			case metricReceived:
				c.Received, c.HasReceived = c.Received+value(m), true
			case metricSent:
				c.Sent += value(m)
			case metricDuplicates:
				c.Duplicates, c.HasDuplicates = c.Duplicates+value(m), true
			case metricDropped:
				cause := "unknown"
				for _, l := range m.GetLabel() {
					if l.GetName() == "cause" {
						cause = l.GetValue()
					}
				}
				c.Dropped[cause] += value(m)
			case metricTravelMax:
				c.TravelMax += value(m)
			case metricStart:
				c.StartTime = value(m)
			}
		}
	}
	return c
}

// value is a counter's, gauge's or untyped series' value; 0 for others.
func value(m *dto.Metric) float64 {
	switch {
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue()
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue()
	case m.GetUntyped() != nil:
		return m.GetUntyped().GetValue()
	}
	return 0
}

// ScrapeCollector fetches and reads the collector's metrics endpoint, as
// Prometheus would (see sample.Scrape).
func ScrapeCollector(ctx context.Context, client *http.Client, url string) (CollectorCounters, error) {
	fams, err := sample.Scrape(ctx, client, url)
	if err != nil {
		return CollectorCounters{}, fmt.Errorf("collector metrics: %w", err)
	}
	c := collectorCounters(fams)
	if !c.HasReceived {
		return c, fmt.Errorf("collector metrics: no %s series (not an HV-VES collector's endpoint?)", metricReceived)
	}
	return c, nil
}

// ReceiverView is what the collector counted between two scrapes, beside
// the written messages: lost = written - received, or, when the collector
// counted more than was written (other shards, another run), extra =
// received - written and nothing lost. The travel average and max come
// from the counters; p50 and p99 from the summary's own quantiles at the
// second scrape, when it exposes them (they cover the summary's window,
// not only the run).
func ReceiverView(before, after CollectorCounters, written int64, source string) *result.HVReceiver {
	rc := &result.HVReceiver{
		Source:   source,
		Received: int64(after.Received - before.Received),
		Accepted: int64(after.Sent - before.Sent),
		Dropped:  map[string]int64{},
	}
	rc.Lost, rc.Extra = max(written-rc.Received, 0), max(rc.Received-written, 0)
	for cause, n := range after.Dropped {
		if d := int64(n - before.Dropped[cause]); d > 0 {
			rc.Dropped[cause] = d
		}
	}
	if after.HasDuplicates {
		d := int64(after.Duplicates - before.Duplicates)
		rc.Duplicates = &d
	}
	if n := after.TravelCount - before.TravelCount; n > 0 {
		rc.TravelAvgMs = (after.TravelSum - before.TravelSum) / n * 1000
		rc.TravelMaxMs = after.TravelMax * 1000
		rc.TravelP50Ms, rc.TravelP99Ms = after.TravelQuantiles[0.5]*1000, after.TravelQuantiles[0.99]*1000
	}
	return rc
}

// Lives follows the collector's counters across its restarts, so that a
// run during which the collector restarted still adds up what each of its
// lives counted. A restart shows as a new process_start_time_seconds or as
// a counter that went backwards; a new life's counters are taken to start
// from zero. What a life counted between the last scrape that saw it and
// its end is not known: Gaps says how many such ends there were.
type Lives struct {
	before CollectorCounters // the scrape before the run
	last   CollectorCounters // the latest scrape
	base   CollectorCounters // the current life's counters at its start in the run
	ended  CollectorCounters // what the ended lives counted during the run
	// Restarts counts the restarts seen.
	Restarts int
	// Unreset counts restarts (a new start time) after which the counters
	// did not begin again: they are read as one life, which the counters
	// allow only if they were carried over, so the figures are uncertain.
	Unreset int
}

// NewLives starts following from the scrape taken before the run.
func NewLives(before CollectorCounters) *Lives {
	return &Lives{before: before, last: before, base: before, ended: CollectorCounters{Dropped: map[string]float64{}}}
}

// Observe adds one scrape, taken after the previous one.
func (l *Lives) Observe(c CollectorCounters) {
	newStart := l.last.StartTime != 0 && c.StartTime != 0 && c.StartTime != l.last.StartTime
	switch {
	case wentBack(l.last, c):
		l.ended = sum(l.ended, diff(l.last, l.base))
		l.base = CollectorCounters{Dropped: map[string]float64{}, StartTime: c.StartTime}
		l.Restarts++
	case newStart:
		l.Restarts++
		l.Unreset++
	}
	l.last = c
}

// Span returns a before and an after whose difference is what every life
// counted during the run, for ReceiverView.
func (l *Lives) Span() (before, after CollectorCounters) {
	after = sum(l.before, sum(l.ended, diff(l.last, l.base)))
	after.TravelMax, after.HasReceived, after.HasDuplicates = l.last.TravelMax, l.last.HasReceived, l.last.HasDuplicates || l.before.HasDuplicates
	return l.before, after
}

// Received is what every life received during the run so far.
func (l *Lives) Received() float64 {
	_, after := l.Span()
	return after.Received - l.before.Received
}

// wentBack reports whether a counter is lower now than before: the
// counters began again, in a new life of the collector.
func wentBack(prev, now CollectorCounters) bool {
	return now.Received < prev.Received || now.Sent < prev.Sent || now.TravelCount < prev.TravelCount
}

// diff is a - b, counter by counter.
func diff(a, b CollectorCounters) CollectorCounters {
	d := CollectorCounters{
		Received: a.Received - b.Received, Sent: a.Sent - b.Sent, Duplicates: a.Duplicates - b.Duplicates,
		TravelSum: a.TravelSum - b.TravelSum, TravelCount: a.TravelCount - b.TravelCount,
		Dropped: maps.Clone(a.Dropped),
	}
	if d.Dropped == nil {
		d.Dropped = map[string]float64{}
	}
	for cause, n := range b.Dropped {
		d.Dropped[cause] -= n
	}
	return d
}

// sum is a + b, counter by counter.
func sum(a, b CollectorCounters) CollectorCounters {
	s := CollectorCounters{
		Received: a.Received + b.Received, Sent: a.Sent + b.Sent, Duplicates: a.Duplicates + b.Duplicates,
		TravelSum: a.TravelSum + b.TravelSum, TravelCount: a.TravelCount + b.TravelCount,
		Dropped: maps.Clone(a.Dropped), StartTime: a.StartTime,
	}
	if s.Dropped == nil {
		s.Dropped = map[string]float64{}
	}
	for cause, n := range b.Dropped {
		s.Dropped[cause] += n
	}
	return s
}
