package result

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestThresholdWithoutMeasurementHasNoValue: a gate whose metric the run
// does not have (hv.lost without an observed receiver) stores no value,
// only its reason; a measured gate keeps its value, zero included.
func TestThresholdWithoutMeasurementHasNoValue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		th   Threshold
		want string
	}{
		{Threshold{Expr: "hv.lost==0", Reason: "the receiving side was not observed"},
			`{"expr":"hv.lost==0","value":null,"pass":false,"reason":"the receiving side was not observed"}`},
		{Threshold{Expr: "hv.lost==0", Value: 0, Pass: true}, `{"expr":"hv.lost==0","value":0,"pass":true}`},
		{Threshold{Expr: "p99<5ms", Value: 7.5, Unit: "ms"}, `{"expr":"p99<5ms","value":7.5,"pass":false,"unit":"ms"}`},
	} {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		err := enc.Encode(c.th)
		b := []byte(strings.TrimSpace(buf.String()))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("got  %s\nwant %s", b, c.want)
		}
		var back Threshold
		if err := json.Unmarshal(b, &back); err != nil || back != c.th {
			t.Errorf("%s read back as %+v (%v)", b, back, err)
		}
	}
	var old Threshold // results written before: a number beside the reason
	if err := json.Unmarshal([]byte(`{"expr":"x>1","value":0,"pass":false,"reason":"r"}`), &old); err != nil || old.Reason != "r" {
		t.Errorf("%+v %v", old, err)
	}
	if b, _ := json.Marshal(old); !strings.Contains(string(b), `"value":null`) {
		t.Errorf("%s", b)
	}
}
