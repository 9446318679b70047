package influx

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
)

// Observer feeds a Writer from the engine (docs/ARCHITECTURE.md,
// "Observers"): the start annotation when the run's clock starts, each
// second of the timeline as the engine closed it, and the requests in
// flight once a second. It sees no request: every figure comes from the
// engine's per-second Tallies. It never waits for InfluxDB.
type Observer struct {
	engine.NopObserver
	W *Writer
}

var (
	_ engine.OutcomeSplitter = (*Observer)(nil)
	_ output.Output          = (*Observer)(nil)
)

// SplitsOutcomes implements engine.OutcomeSplitter: the rows are ok, ko
// and by error.
func (o *Observer) SplitsOutcomes() bool { return true }

// OutputName implements engine.OutputNamer.
func (o *Observer) OutputName() (name string, live bool) { return "--influx-url", false }

// Begin writes the test's start annotation.
func (o *Observer) Begin(start time.Time) { o.W.Start(start) }

// Timeline adds the points of one closed second.
func (o *Observer) Timeline(s result.Second, t *result.Tally) { o.W.Timeline(s.T, t) }

// Second queues the points of the seconds closed since the last one.
func (o *Observer) Second(p *engine.Progress) { o.W.Second(p.InFlight, p.OK+p.Errors) }

// Finish writes the last second and the end annotation, waits up to wait
// for the writes, and records in the result what reached InfluxDB, with
// a warning when batches were lost.
func (o *Observer) Finish(res *result.Result, wait time.Duration) {
	st := o.W.Close(0, wait)
	res.Influx = &result.InfluxWrites{URL: st.URL, Batches: st.Batches, Points: st.Points,
		Failed: st.Failed, Dropped: st.Dropped, LastError: st.LastError}
	if lost := st.Failed + st.Dropped; lost > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("InfluxDB: %d of %d batches were not written (last: %s)",
			lost, lost+st.Batches, st.LastError))
		res.Outputs = append(res.Outputs, result.OutputLoss{Name: "--influx-url", Batches: lost, Error: st.LastError})
	}
}
