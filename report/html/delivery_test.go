package html

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestReportDeliverySection(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	if page := render1(t, r); strings.Contains(page, `id="delivery"`) {
		t.Error("a run without --consume has a delivery section")
	}
	r.Delivery = &result.Delivery{Source: "kafka://k:9092/unauthenticated.SEC_FAULT_OUTPUT", TimestampType: "CreateTime",
		GraceS: 30, Expected: 500, Accepted: 500, Delivered: 475, Lost: 25, LostThoughAccepted: 25, Records: 480, Foreign: 5,
		ClockSkewed: 3, E2E: result.Summary{Count: 475, Avg: 12.5, P99: 40, Max: 55}, Consumed: result.Summary{Count: 475, Avg: 14}}
	page := render1(t, r)
	checkSelfContained(t, page)
	for _, want := range []string{
		`id="delivery"`, "kafka://k:9092/unauthenticated.SEC_FAULT_OUTPUT", "record timestamps: CreateTime",
		">500 (500 answered 2xx)<", ">475 (95.00 %)<", `class="num fail">25<`, "due time → record timestamp",
		">12.50<", "3 record timestamps were before their event was due",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
