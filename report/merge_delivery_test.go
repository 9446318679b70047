package report

import (
	"github.com/vesload/vesload/report/result"
	"testing"
	"time"
)

// withDelivery gives r a delivery section whose e2e values are
// 1…n ms × scale.
func withDelivery(t *testing.T, r *result.Result, n, scale int64, tsType string) *result.Result {
	t.Helper()
	e2e, consumed := result.NewHistogram(), result.NewHistogram()
	for i := int64(1); i <= n; i++ {
		if err := e2e.RecordValue(i * 1000 * scale); err != nil {
			t.Fatal(err)
		}
		if err := consumed.RecordValue(i*1000*scale + 500); err != nil {
			t.Fatal(err)
		}
	}
	enc1, err := result.EncodeHistogram(e2e)
	if err != nil {
		t.Fatal(err)
	}
	enc2, err := result.EncodeHistogram(consumed)
	if err != nil {
		t.Fatal(err)
	}
	r.Delivery = &result.Delivery{Source: "kafka://k:9092/t", TimestampType: tsType, GraceS: 30,
		Expected: n + 5, Accepted: n + 3, Delivered: n, Lost: 5, LostThoughAccepted: 3, Duplicates: 1, Records: n + 2,
		Foreign: 1, LagMax: scale, E2E: result.Summarize(e2e), Consumed: result.Summarize(consumed),
		Histograms: result.DeliveryHistograms{E2E: enc1, Consumed: enc2},
		Timeline:   []result.DeliverySecond{{T: 0, Delivered: n, P99Ms: float64(scale), Lag: 1}}}
	return r
}

func TestMergeDelivery(t *testing.T) {
	t.Parallel()
	a := withDelivery(t, generator(t, 0, 1), 100, 1, "CreateTime")
	b := withDelivery(t, generator(t, 0, 1), 300, 2, "CreateTime")
	plain := generator(t, time.Second, 1)
	m, err := Merge([]*result.Result{a, b, plain}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Delivery
	if d == nil {
		t.Fatal("merged result has no delivery section")
	}
	if d.Expected != 410 || d.Delivered != 400 || d.Lost != 10 || d.LostThoughAccepted != 6 ||
		d.Duplicates != 2 || d.Foreign != 2 || d.Records != 404 || d.LagMax != 2 || d.TimestampType != "CreateTime" {
		t.Errorf("merged counts %+v", d)
	}
	// 100 values of 1…100 ms and 300 of 2…600 ms: the median of the union
	// is the 200th value, 1 of every 4 being from a.
	if d.E2E.Count != 400 || d.E2E.Max < 599 || d.E2E.Max > 601 || d.Consumed.Count != 400 {
		t.Errorf("merged e2e %+v, consumed %+v", d.E2E, d.Consumed)
	}
	h, err := result.DecodeHistogram(d.Histograms.E2E)
	if err != nil || h.TotalCount() != 400 {
		t.Fatalf("merged histogram: %v, %v", h, err)
	}
	if got := result.Summarize(h); got != d.E2E {
		t.Errorf("summary %+v does not come from the merged histogram %+v", d.E2E, got)
	}
	if len(d.Timeline) != 1 || d.Timeline[0].Delivered != 400 || d.Timeline[0].P99Ms != 2 || d.Timeline[0].Lag != 2 {
		t.Errorf("merged timeline %+v", d.Timeline)
	}
	b.Delivery.TimestampType = "LogAppendTime"
	if m, err = Merge([]*result.Result{a, b}, nil); err != nil || m.Delivery.TimestampType != "mixed" {
		t.Errorf("timestamp types CreateTime + LogAppendTime merged as %v (%v)", m.Delivery, err)
	}
	if m, err = Merge([]*result.Result{plain, generator(t, 0, 1)}, nil); err != nil || m.Delivery != nil {
		t.Errorf("merge without delivery sections: %v, %v", m.Delivery, err)
	}
	b.Delivery.Histograms.E2E = ""
	if _, err = Merge([]*result.Result{a, b}, nil); err == nil {
		t.Error("a delivery section with values but no histogram merged")
	}
}
