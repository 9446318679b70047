package result

import (
	"fmt"
	"strings"
)

// OutputLoss is what one output of a run lost because it fell behind the
// run or failed: the run, its result and every other output are complete.
type OutputLoss struct {
	// Name names the output as the user asked for it ("--jtl r.jtl", "live line").
	Name string `json:"name"`
	// Seconds counts the seconds of the timeline the output skipped.
	Seconds int64 `json:"seconds_skipped,omitempty"`
	// Updates counts the once-a-second live updates the output skipped.
	Updates int64 `json:"updates_skipped,omitempty"`
	// Rows counts the per-request rows (or events) the output dropped.
	Rows int64 `json:"rows_dropped,omitempty"`
	// Batches counts the batches of points (InfluxDB) not written.
	Batches int64 `json:"batches_lost,omitempty"`
	// Lines counts the lines of text a terminal that hung up (SIGHUP)
	// did not get.
	Lines int64 `json:"lines_dropped,omitempty"`
	// Unfinished says the output was still busy when the run ended and
	// was left behind.
	Unfinished bool `json:"unfinished,omitempty"`
	// Error is the error that stopped the output, if one did.
	Error string `json:"error,omitempty"`
	// Live says the output is a live view (the live line, the live page,
	// live metrics): what it skipped was shown late or not at all, and no
	// record of the run misses it.
	Live bool `json:"live,omitempty"`
}

// Incomplete reports whether a record the user asked for (a file, a
// database) misses part of the run: live views that skipped updates do
// not count.
func (o OutputLoss) Incomplete() bool { return !o.Live }

// Summary is the loss in words, such as "--jtl r.jtl: 1,200 rows dropped".
func (o OutputLoss) Summary() string {
	var parts []string
	add := func(n int64, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(o.Rows, "rows dropped")
	add(o.Batches, "batches lost")
	add(o.Lines, "lines dropped")
	add(o.Seconds, "seconds skipped")
	add(o.Updates, "updates skipped")
	if o.Unfinished {
		parts = append(parts, "unfinished at the end")
	}
	if o.Error != "" {
		parts = append(parts, o.Error)
	}
	return o.Name + ": " + strings.Join(parts, ", ")
}

// OutputsIncomplete reports whether an output the user asked for as a
// record of the run (a file, a database) misses part of it: such a run
// exits 1 once everything else is written, unless a gate failed.
func (r *Result) OutputsIncomplete() bool {
	for _, o := range r.Outputs {
		if o.Incomplete() {
			return true
		}
	}
	return false
}
