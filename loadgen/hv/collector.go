package hv

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/vesload/vesload/internal/promtext"
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
)

// maxScrape bounds a scraped body.
const maxScrape = 16 << 20

// CollectorCounters are the collector's cumulative counters at one
// scrape; the difference of two scrapes is what a run caused.
type CollectorCounters struct {
	Received, Sent float64
	Dropped        map[string]float64
	// TravelSum and TravelCount are the travel-time summary's (or
	// histogram's) sum in seconds and count; TravelMax its max when the
	// collector exposes one (Micrometer does).
	TravelSum, TravelCount, TravelMax float64
	HasReceived, HasDuplicates        bool
	Duplicates                        float64
}

// ParseCollectorMetrics reads the collector's counters from a Prometheus
// text exposition. Series it does not find stay zero; HasReceived says
// whether the endpoint is an HV-VES collector's at all.
func ParseCollectorMetrics(body []byte) (CollectorCounters, error) {
	samples, err := promtext.Parse(body, promtext.Text)
	if err != nil {
		return CollectorCounters{}, fmt.Errorf("parse collector metrics: %w", err)
	}
	c := CollectorCounters{Dropped: map[string]float64{}}
	for i := range samples {
		s := &samples[i]
		switch {
		case s.Name == metricTravel+"_sum":
			c.TravelSum += s.Value // a summary's or histogram's, or untyped without TYPE lines
		case s.Name == metricTravel+"_count":
			c.TravelCount += s.Value
		case !s.IsValue():
		case s.Name == metricReceived:
			c.Received, c.HasReceived = c.Received+s.Value, true
		case s.Name == metricSent:
			c.Sent += s.Value
		case s.Name == metricDuplicates:
			c.Duplicates, c.HasDuplicates = c.Duplicates+s.Value, true
		case s.Name == metricDropped:
			cause, ok := s.Label("cause")
			if !ok {
				cause = "unknown"
			}
			c.Dropped[cause] += s.Value
		case s.Name == metricTravelMax:
			c.TravelMax += s.Value
		}
	}
	return c, nil
}

// ScrapeCollector fetches and reads the collector's metrics endpoint.
func ScrapeCollector(ctx context.Context, client *http.Client, url string) (CollectorCounters, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return CollectorCounters{}, fmt.Errorf("collector metrics: %w", err)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		return CollectorCounters{}, fmt.Errorf("collector metrics: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxScrape+1))
	switch {
	case err != nil:
		return CollectorCounters{}, fmt.Errorf("collector metrics: read: %w", err)
	case resp.StatusCode != http.StatusOK:
		return CollectorCounters{}, fmt.Errorf("collector metrics: HTTP %s", resp.Status)
	case len(body) > maxScrape:
		return CollectorCounters{}, fmt.Errorf("collector metrics: body larger than %d bytes", maxScrape)
	}
	c, err := ParseCollectorMetrics(body)
	if err == nil && !c.HasReceived {
		err = fmt.Errorf("collector metrics: no %s series (not an HV-VES collector's endpoint?)", metricReceived)
	}
	return c, err
}

// ReceiverView is what the collector counted between two scrapes, beside
// the written messages: lost = written - received. Travel percentiles are
// not available from counters; the average and the max are, when exposed.
func ReceiverView(before, after CollectorCounters, written int64, source string) *result.HVReceiver {
	rc := &result.HVReceiver{
		Source:   source,
		Received: int64(after.Received - before.Received),
		Accepted: int64(after.Sent - before.Sent),
		Dropped:  map[string]int64{},
	}
	rc.Lost = written - rc.Received
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
	}
	return rc
}
