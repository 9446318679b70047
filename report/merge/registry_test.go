package merge

import (
	"math"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// TestMergeAsDeclared holds the merge of independent generators to the
// way the registry says each metric merges: a sum is the sum of the
// inputs', a maximum their largest, a mean their mean. Figures recomputed
// from histograms or merged counts are the merge's own tests'.
func TestMergeAsDeclared(t *testing.T) {
	t.Parallel()
	a, b := generator(t, 0, 1), generator(t, 2*time.Second, 3)
	b.Target.CPUAvgPct, b.Target.CPUMaxPct = 50, 99
	type read struct {
		a, b float64
		ok   bool
	}
	inputs := map[string]read{} // read before the merge, which may reuse its inputs
	for _, d := range metric.All() {
		va, ra := d.Read(a)
		vb, rb := d.Read(b)
		inputs[d.Name] = read{va, vb, ra == "" && rb == ""}
	}
	m, err := Results([]*result.Result{a, b}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range metric.All() {
		in := inputs[d.Name]
		va, vb := in.a, in.b
		vm, rm := d.Read(m)
		if !in.ok {
			continue
		}
		if rm != "" {
			t.Errorf("%s: both inputs have it, the merge lacks it: %s", d.Name, rm)
			continue
		}
		var want float64
		switch d.Merge {
		case metric.Sum:
			want = va + vb
		case metric.Max:
			want = math.Max(va, vb)
		case metric.Mean:
			want = (va + vb) / 2
		default:
			continue
		}
		checked++
		if math.Abs(vm-want) > 0.01*math.Max(1, math.Abs(want)) {
			t.Errorf("%s merges by %v: %v and %v gave %v, want %v", d.Name, d.Merge, va, vb, vm, want)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d metrics checked: the fixtures lack the figures", checked)
	}
}
