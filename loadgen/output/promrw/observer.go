package promrw

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
)

// flag names the output in the result, as the user turned it on.
const flag = "--remote-write-url"

// Observer feeds a Writer from the engine (docs/ARCHITECTURE.md,
// "Observers"): second 0 when the run's clock starts, each second of the
// timeline as the engine closed it, the requests in flight once a
// second. It sees no request and never waits for the endpoint.
type Observer struct {
	engine.NopObserver
	W *Writer
}

var _ output.Output = (*Observer)(nil)

// OutputName implements engine.OutputNamer: a record, not a live view.
func (o *Observer) OutputName() (name string, live bool) { return flag, false }

// Begin sets second 0 of the timeline.
func (o *Observer) Begin(start time.Time) { o.W.Start(start) }

// Timeline adds the samples of one closed second.
func (o *Observer) Timeline(s result.Second, t *result.Tally) { o.W.Timeline(s.T, t) }

// Second queues the samples of the seconds closed since the last one.
func (o *Observer) Second(p *engine.Progress) { o.W.Second(p.InFlight) }

// Finish flushes the last seconds, waits up to wait for the writes, and
// records in the result what reached the endpoint, with a warning and an
// output loss when batches were lost.
func (o *Observer) Finish(res *result.Result, wait time.Duration) {
	st := o.W.Close(wait)
	res.Written = append(res.Written, result.OutputWrites{Output: flag, URL: st.URL, Batches: st.Batches,
		Samples: st.Samples, Failed: st.Failed, Dropped: st.Dropped, LastError: st.LastError})
	if lost := st.Failed + st.Dropped; lost > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("Prometheus remote write: %d of %d batches were not written (last: %s)",
			lost, lost+st.Batches, st.LastError))
		res.Outputs = append(res.Outputs, result.OutputLoss{Name: flag, Batches: lost, Error: st.LastError})
	}
}

// Close implements output.Output: a run that ended without a result
// stops the writer, waiting a second for what is queued.
func (o *Observer) Close() { o.W.Close(time.Second) }
