package files_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
)

// seedLine is a rendering of a result: ONAP's seed row on one line, its
// figures formatted as every other rendering formats them (report/seed,
// report/format). A rendering reads the result and writes bytes; it
// touches no file and no network.
func seedLine(w io.Writer, r *result.Result) error {
	_, err := fmt.Fprintf(w, "%s\n%s\n", strings.Join(seed.Header(), " | "), strings.Join(seed.Values(r), " | "))
	return err
}

// Example_addARendering is the recipe for a new rendering: a function
// from a result to bytes beside the others (report, or a room of its own
// under report/), and one line in Formats, which `vesload report
// --format`, its check of the flag and its error message read.
func Example_addARendering() {
	formats := files.Formats()
	formats["seedline"] = seedLine // the line the recipe adds to Formats

	r := &result.Result{
		Requests: result.Requests{Scheduled: 200, Sent: 200, OK: 198, Errors: 2},
		Latency:  result.Summary{Count: 198, Avg: 3.25, Max: 40, P50: 3, P95: 7.5, P99: 12},
		Target:   &result.Target{CPUMaxPct: 62.5},
	}
	if err := formats["seedline"](os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Avg | Max | p50 | p95 | p99 | Error rate % | Max CPU %
	// 3.25 | 40.00 | 3.00 | 7.50 | 12.00 | 1.00 | 62.5
}
