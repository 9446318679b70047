package observe

import (
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// JTL writes every request as a JMeter JTL row. A row costs no
// allocation; the first write error stops the stream and is kept.
type JTL struct {
	loadgen.NopObserver
	w     *report.JTLWriter
	label string
	err   error
}

// NewJTL streams to w, labelling every row with label.
func NewJTL(w *report.JTLWriter, label string) *JTL { return &JTL{w: w, label: label} }

// Request implements loadgen.Observer.
func (j *JTL) Request(ev *loadgen.RequestEvent) {
	if j.err == nil {
		j.err = j.w.Write(report.JTLSample{
			Start: ev.Due, Elapsed: ev.Latency, Service: ev.Service, Label: j.label,
			Code: ev.Code, Outcome: ev.Outcome, BytesRecv: ev.BytesRecv, BytesSent: ev.BytesSent,
			InFlight: ev.InFlight, Connect: ev.Connect, FirstByte: ev.FirstByte,
		})
	}
}

// Err is the first write error; read it once the run is over.
func (j *JTL) Err() error { return j.err }

// HdrLog writes each second of the timeline's latency histogram as one
// interval of an HdrHistogram log.
type HdrLog struct {
	loadgen.NopObserver
	log   *report.HdrLog
	start time.Time
	err   error
}

// NewHdrLog streams to log.
func NewHdrLog(log *report.HdrLog) *HdrLog { return &HdrLog{log: log} }

// Begin implements loadgen.Observer.
func (h *HdrLog) Begin(start time.Time) { h.start = start }

// Timeline implements loadgen.Observer.
func (h *HdrLog) Timeline(s result.Second, t *result.Tally) {
	if h.err == nil && t.Latency != nil {
		from := h.start.Add(time.Duration(s.T) * time.Second)
		h.err = h.log.Interval(from, from.Add(time.Second), t.Latency)
	}
}

// Err is the first write error; read it once the run is over.
func (h *HdrLog) Err() error { return h.err }
