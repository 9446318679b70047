package merge

import (
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func TestMergeDelivery(t *testing.T) {
	t.Parallel()
	a := withDelivery(t, generator(t, 0, 1), 100, 1, "CreateTime")
	b := withDelivery(t, generator(t, 0, 1), 300, 2, "CreateTime")
	plain := generator(t, time.Second, 1)
	m, err := Results([]*result.Result{a, b, plain}, nil)
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
	if m, err = Results([]*result.Result{a, b}, nil); err != nil || m.Delivery.TimestampType != "mixed" {
		t.Errorf("timestamp types CreateTime + LogAppendTime merged as %v (%v)", m.Delivery, err)
	}
	if m, err = Results([]*result.Result{plain, generator(t, 0, 1)}, nil); err != nil || m.Delivery != nil {
		t.Errorf("merge without delivery sections: %v, %v", m.Delivery, err)
	}
	b.Delivery.Histograms.E2E = ""
	if _, err = Results([]*result.Result{a, b}, nil); err == nil {
		t.Error("a delivery section with values but no histogram merged")
	}
}
