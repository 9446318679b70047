package hv

import (
	"context"
	"fmt"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// settleEvery is how often Settle scrapes the collector.
const settleEvery = 500 * time.Millisecond

// Settle waits for the collector to finish counting what a run wrote: it
// scrapes until the messages received reach written, or the count stops
// rising from one scrape to the next, or bound has passed since the first
// scrape. Every scrape goes into lives. It returns warnings, for the
// result: a count still rising at the end of the bound (messages still
// being counted would otherwise be reported lost), restarts of the
// collector, and a failed scrape (which ends the wait).
func Settle(ctx context.Context, scrape func(context.Context) (CollectorCounters, error), lives *Lives,
	written int64, bound time.Duration, clk clock.Clock) []string {
	clk = clock.Default(clk)
	deadline := clk.Now().Add(bound)
	var warnings []string
	prev := -1.0
	for {
		c, err := scrape(ctx)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the collector's metrics could not be read after the run: %v", err))
			break
		}
		lives.Observe(c)
		got := lives.Received()
		if got >= float64(written) || got == prev {
			break
		}
		if !clk.Now().Before(deadline) {
			warnings = append(warnings, fmt.Sprintf("the collector's received count was still rising when --settle %v ended "+
				"(%.0f of %d written): messages still being counted show as lost; raise --settle", bound, got, written))
			break
		}
		prev = got
		if !clock.Sleep(ctx, clk, settleEvery, nil) {
			break
		}
	}
	if n := lives.Restarts - lives.Unreset; n > 0 {
		warnings = append(warnings, fmt.Sprintf("the collector restarted %d time(s) during the run: its counts are added across its lives, "+
			"but what it counted between the last scrape before a restart and the restart is missing, so lost may be overstated", n))
	}
	if lives.Unreset > 0 {
		warnings = append(warnings, fmt.Sprintf("the collector restarted %d time(s) (a new process_start_time_seconds) without its counters "+
			"starting again: they are read as one life, which holds only if the collector carried them over", lives.Unreset))
	}
	return warnings
}
