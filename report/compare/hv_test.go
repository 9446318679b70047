package compare

import (
	"slices"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestCompareHVRows(t *testing.T) {
	t.Parallel()
	a, b := side(t, 10, 1, 0, 1, 2), side(t, 10, 11, 0, 1, 2)
	for i, r := range a {
		r.HV = &result.HV{PeakMBps: 4.9 + float64(i)/100, MBps: 4.8, Receiver: &result.HVReceiver{Lost: 0}}
	}
	for i, r := range b {
		r.HV = &result.HV{PeakMBps: 3.1 + float64(i)/100, MBps: 3.0}
	}
	c, err := Compare(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if row := rowOf(t, c, "hv.peak_mbps"); row.A.Center < 4.9 || row.B.Center > 3.2 || row.Better != HigherIsBetter {
		t.Errorf("peak row %+v", row)
	}
	rowOf(t, c, "hv.mbps")
	if slices.Contains(metricNames(c), "hv.receiver.lost") {
		t.Error("lost compared although B did not observe the receiver")
	}
	rest, err := Compare(side(t, 10, 1, 0, 1), side(t, 10, 5, 0, 1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range metricNames(rest) {
		if n == "hv.peak_mbps" || n == "hv.mbps" {
			t.Errorf("REST runs compared on %s", n)
		}
	}
}
