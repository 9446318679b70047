package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// CSV writes the per-second timeline with a header row, one line per
// second, for spreadsheets and plotting scripts. Error classes seen in any
// second become columns "errors.<class>" in name order, so that errors
// over time chart directly. Target columns are left empty when the target
// was not sampled rather than filled with zeros a chart would mistake for
// an idle target.
func CSV(w io.Writer, r *result.Result) error {
	if r == nil {
		return errors.New("csv timeline: no result")
	}
	classes := timelineClasses(r.Timeline)
	header := []string{"t", "scheduled", "sent", "ok", "errors", "pool_exhausted",
		"p50_ms", "p99_ms", "max_ms", "target_cpu_pct", "target_rss_bytes", "generator_cpu_pct"}
	for _, c := range classes {
		header = append(header, "errors."+c)
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	for _, s := range r.Timeline {
		row := []string{
			format.Int(s.T), format.Int(s.Scheduled), format.Int(s.Sent), format.Int(s.OK), format.Int(s.Errors),
			format.Int(s.PoolExhausted), format.Exact(s.P50Ms), format.Exact(s.P99Ms), format.Exact(s.MaxMs),
			"", "", format.Exact(s.GenCPUPct),
		}
		if r.Target != nil {
			row[9], row[10] = format.Exact(s.TargetCPUPct), strconv.FormatInt(s.TargetRSSBytes, 10)
		}
		for _, c := range classes {
			row = append(row, format.Int(s.ErrorsByClass[c]))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv timeline: %w", err)
	}
	return nil
}

// timelineClasses returns every error class that appears in the timeline.
func timelineClasses(tl []result.Second) []string {
	seen := map[string]bool{}
	for _, s := range tl {
		for c := range s.ErrorsByClass {
			seen[c] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
