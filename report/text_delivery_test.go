package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
)

// TestDeliveryRendering checks the delivery section and the seed
// table's processing-time column against golden files, for a Kafka run
// with losses and for an HV-VES run, whose protocol answers nothing.
func TestDeliveryRendering(t *testing.T) {
	t.Parallel()
	kafka := withDelivery(t, sampleResult(t), 200, 1, "CreateTime")
	kafka.Delivery.ClockSkewed = 2
	hvRun := withDelivery(t, sampleResult(t), 50, 2, "LogAppendTime")
	hvRun.Delivery.NoAnswers, hvRun.Delivery.Accepted, hvRun.Delivery.LostThoughAccepted = true, 0, 0
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"text_delivery.golden", func(b *bytes.Buffer) error { return summary.Text(b, kafka, summary.Options{}) }},
		{"text_delivery_hv.golden", func(b *bytes.Buffer) error { return summary.Text(b, hvRun, summary.Options{}) }},
		{"markdown_table_delivery.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*result.Result{kafka, sampleResult(t)}, []string{"followed", "not followed"})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := tc.render(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
	var plain bytes.Buffer
	if err := summary.Text(&plain, sampleResult(t), summary.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "Delivery") || strings.Contains(plain.String(), "processing time") {
		t.Error("a run without --consume shows delivery figures")
	}
}

// TestDeliveryResolution checks that whole-millisecond record timestamps
// are stated where "to the record" is printed, and that the seed table's
// processing time is the read's when they are too coarse for it.
func TestDeliveryResolution(t *testing.T) {
	t.Parallel()
	fast := withDelivery(t, sampleResult(t), 200, 1, "CreateTime")
	fast.Delivery.TimestampResolutionMs = 1
	fast.Delivery.E2E = result.Summary{Count: 200, Avg: 0.004, P50: 0, P95: 0.01, P99: 0.02, Max: 1}
	fast.Delivery.Consumed = result.Summary{Count: 200, Avg: 0.66, P50: 0.66, P95: 0.7, P99: 0.9, Max: 1.2}
	var text, table bytes.Buffer
	if err := summary.Text(&text, fast, summary.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"record timestamps: CreateTime, 1 ms resolution",
		"to the record is measured to whole-millisecond record timestamps: up to 1 ms low",
		"Avg VES processing time is to the read (0.66 ms): record timestamps are too coarse for it",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text does not say %q:\n%s", want, text.String())
		}
	}
	if err := MarkdownTable(&table, []*result.Result{fast}, []string{"fast"}); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\|\s+0\.66 \|`).MatchString(table.String()) || regexp.MustCompile(`\|\s+0\.00 \|`).MatchString(table.String()) {
		t.Errorf("seed table does not show the read's 0.66 ms:\n%s", table.String())
	}
	// A collector slow enough for millisecond timestamps keeps the record's figure.
	slow := withDelivery(t, sampleResult(t), 200, 1, "CreateTime")
	slow.Delivery.TimestampResolutionMs = 1
	text.Reset()
	if err := summary.Text(&text, slow, summary.Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "Avg VES processing time is to the record (" + format.Ms(slow.Delivery.E2E.Avg) + " ms)"; !strings.Contains(text.String(), want) {
		t.Errorf("text does not say %q:\n%s", want, text.String())
	}
}
