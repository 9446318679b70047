package ves

import (
	"fmt"
	"testing"
	"time"
)

func benchmarkBody(b *testing.B, r bodyRenderer) {
	b.Helper()
	due := time.Now()
	buf := r.AppendBody(nil, 1<<40, due)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range uint64(b.N) {
		buf = r.AppendBody(buf[:0], i, due)
	}
}

func newBenchEvent(b *testing.B, domain string, opts EventOptions) *Event {
	b.Helper()
	e, err := NewEvent(domain, opts)
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkEventFault1KiB is the default event of a plain run: a fault
// padded to 1 KiB.
func BenchmarkEventFault1KiB(b *testing.B) {
	benchmarkBody(b, newBenchEvent(b, "fault", EventOptions{Size: 1024}))
}

// BenchmarkEvent8KiB is the high-volume producer test's 8 KiB event, for
// every domain, single and in a batch of 10.
func BenchmarkEvent8KiB(b *testing.B) {
	for _, domain := range Domains() {
		b.Run(domain, func(b *testing.B) {
			benchmarkBody(b, newBenchEvent(b, domain, EventOptions{Size: 8192}))
		})
	}
	b.Run("fault-batch10", func(b *testing.B) {
		benchmarkBody(b, newBenchEvent(b, "fault", EventOptions{Size: 8192 * 10, Batch: 10}))
	})
}

// BenchmarkEventParallel renders from all Ps at once, as the engine does.
func BenchmarkEventParallel(b *testing.B) {
	e := newBenchEvent(b, "fault", EventOptions{Size: 1024})
	due := time.Now()
	b.SetBytes(1024)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var buf []byte
		seq := uint64(0)
		for pb.Next() {
			buf = e.AppendBody(buf[:0], seq, due)
			seq++
		}
	})
}

// benchTemplate is a fault body in the style of an imported JMeter plan,
// using every kind of per-request placeholder.
const benchTemplate = `{
  "event": {
    "commonEventHeader": {
      "version": "4.1", "vesEventListenerVersion": "7.2.1", "domain": "fault",
      "eventName": "Fault_vesload_Template", "eventId": "{{.EventID}}", "sequence": {{.Seq}},
      "priority": "High", "reportingEntityName": "${ENTITY}", "sourceName": "${SOURCE}",
      "sourceId": "${__UUID()}", "startEpochMicrosec": {{.EpochMicros}}, "lastEpochMicrosec": ${__time()}
    },
    "faultFields": {
      "faultFieldsVersion": "4.0", "alarmCondition": "PilotNumberPoolExhaustion", "eventSourceType": "other",
      "specificProblem": "Calls cannot complete - pilot numbers are unavailable", "eventSeverity": "CRITICAL",
      "vfStatus": "Active",
      "alarmAdditionalInformation": {"count": "${__counter(,)}", "pool": "${__Random(1,1000)}", "at": "{{.EventTime}}"}
    }
  }
}`

func BenchmarkTemplateRender(b *testing.B) {
	tpl, err := CompileTemplate([]byte(benchTemplate), TemplateOptions{Vars: map[string]string{"ENTITY": "ems-1", "SOURCE": "nf-1"}})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkBody(b, tpl)
}

// BenchmarkTemplateRenderDataRows renders the same template with SOURCE
// and ENTITY bound per request from 1000 data rows.
func BenchmarkTemplateRenderDataRows(b *testing.B) {
	d := &Data{Columns: []string{"ENTITY", "SOURCE"}}
	for i := range 1000 {
		d.Rows = append(d.Rows, []string{fmt.Sprintf("ems-%d", i), fmt.Sprintf("nf-%04d", i)})
	}
	tpl, err := CompileTemplate([]byte(benchTemplate), TemplateOptions{Data: d})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkBody(b, tpl)
}
