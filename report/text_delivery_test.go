package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
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
		{"text_delivery.golden", func(b *bytes.Buffer) error { return Text(b, kafka, TextOptions{}) }},
		{"text_delivery_hv.golden", func(b *bytes.Buffer) error { return Text(b, hvRun, TextOptions{}) }},
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
	if err := Text(&plain, sampleResult(t), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "Delivery") || strings.Contains(plain.String(), "processing time") {
		t.Error("a run without --consume shows delivery figures")
	}
}
