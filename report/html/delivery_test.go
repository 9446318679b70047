package html

import (
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// withDelivery adds what a consumer of the output topic saw to r: 6,000
// events expected, 3 lost of which 2 had been accepted, a timeline of
// 60 seconds read with a lag that builds up in the slow patch.
func withDelivery(r *result.Result) *result.Result {
	d := &result.Delivery{
		Source: "kafka://ves:s3cr3t@kafka:9092/unauthenticated.SEC_FAULT_OUTPUT", TimestampType: "LogAppendTime", GraceS: 5,
		Expected: 6000, Accepted: 5964, Delivered: 5997, Lost: 3, LostThoughAccepted: 2, DeliveredThoughRejected: 35,
		Duplicates: 1, Records: 6010, Foreign: 12, LagMax: 140, ClockSkewed: 4,
		E2E:      result.Summary{Count: 5997, Min: 2.1, Avg: 14, P50: 11, P90: 25, P95: 31, P99: 52, P999: 80, Max: 95},
		Consumed: result.Summary{Count: 5997, Min: 3, Avg: 17, P50: 13, P90: 29, P95: 36, P99: 60, P999: 90, Max: 110},
	}
	for sec := range 60 {
		s := result.DeliverySecond{T: int64(sec), Delivered: 100, P50Ms: 11, P99Ms: 40, MaxMs: 60, Lag: 3}
		if sec >= 20 && sec < 30 {
			s.P99Ms, s.MaxMs, s.Lag = 90, 95, int64(14*(sec-19))
		}
		d.Timeline = append(d.Timeline, s)
	}
	r.Delivery = d
	return r
}

func TestDeliverySection(t *testing.T) {
	t.Parallel()
	page := render1(t, withDelivery(sampleResult(t)))
	checkSelfContained(t, page)
	for _, want := range []string{
		`id="delivery"`, "Delivery (end to end)", "kafka://ves:xxxxx@kafka:9092/unauthenticated.SEC_FAULT_OUTPUT",
		"LogAppendTime", ">5997 (99.95%)<", `class="num fail">3 / 2<`, ">35<", ">12 / 6010<", ">140 records<",
		"to the record&#39;s timestamp", ">52.00<", "4 record timestamps were before their event was due",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "s3cr3t") {
		t.Error("page leaks the consumer's password")
	}
	charts := pageCharts(t, page)
	got := titles(charts)
	for _, want := range []string{"End-to-end latency per second", "Events delivered per second"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q chart in %q", want, got)
		}
	}
	flow := charts[slices.Index(got, "Events delivered per second")]
	if !slices.Equal(labels(flow), []string{"delivered", "consumer lag"}) || flow.Data[2][29] != 140 {
		t.Errorf("delivery flow %q, lag at 29 s %v, want 140", labels(flow), flow.Data[2][29])
	}
	if plain := render1(t, sampleResult(t)); strings.Contains(plain, `id="delivery"`) || strings.Contains(plain, "Events delivered") {
		t.Error("a run without a consumer shows a delivery section")
	}
}

// TestDeliveryResolution checks that the page states the record
// timestamps' resolution where "to the record" is shown, and which
// figure stands for the processing time.
func TestDeliveryResolution(t *testing.T) {
	t.Parallel()
	page := render1(t, withDelivery(sampleResult(t)))
	for _, want := range []string{"record timestamps: LogAppendTime, 1 ms resolution",
		"up to 1 ms low", "Avg VES processing time is to the record (14.00 ms)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	fast := withDelivery(sampleResult(t))
	fast.Delivery.TimestampResolutionMs = 1
	fast.Delivery.E2E = result.Summary{Count: 5997, Avg: 0.01, P50: 0, Max: 1}
	fast.Delivery.Consumed = result.Summary{Count: 5997, Avg: 0.66, P50: 0.66, Max: 2}
	if page := render1(t, fast); !strings.Contains(page, "Avg VES processing time is to the read (0.66 ms): record timestamps are too coarse for it") {
		t.Errorf("sub-millisecond page does not say the processing time is to the read")
	}
}

// TestDeliverySectionHV: HV-VES answers nothing, so the section has no
// "answered 2xx" figures, and says why.
func TestDeliverySectionHV(t *testing.T) {
	t.Parallel()
	r := withDelivery(sampleResult(t))
	r.Delivery.NoAnswers, r.Delivery.Accepted, r.Delivery.LostThoughAccepted, r.Delivery.DeliveredThoughRejected = true, 0, 0, 0
	page := render1(t, r)
	for _, bad := range []string{"answered 2xx", "of which accepted", "though the request failed"} {
		if strings.Contains(page, bad) {
			t.Errorf("HV-VES page shows %q", bad)
		}
	}
	for _, want := range []string{"expected (of the messages written)", "the protocol answers nothing", `class="num fail">3<`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
