package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// FuzzCompare compares any document Decode accepts against a changed
// copy of itself: Compare and every renderer must not panic, p-values
// stay in [0, 1], and a row is significant only when it was tested.
func FuzzCompare(f *testing.F) {
	for _, r := range []*result.Result{synth(f, runSpec{base: 10, seed: 1, cpu: 40}), {Schema: result.Schema}} {
		var b bytes.Buffer
		if err := resultfile.Encode(&b, r); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes(), 1.3)
	}
	f.Fuzz(func(t *testing.T, data []byte, scale float64) {
		r, err := resultfile.Decode(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		other := *r
		other.Latency.P99 *= scale
		other.RPS.Achieved *= scale
		for _, sides := range [][2][]*result.Result{
			{{r, r, r}, {&other, r, &other}},
			{{r}, {&other}},
		} {
			for _, test := range []Test{Welch, UTest} {
				c, err := Compare(sides[0], sides[1], Options{Test: test, Gates: mustGates(t, "p99<+10%", "rps>-5%", "error_rate<+1pp", "target_cpu_avg<+5pp")})
				if err != nil {
					t.Fatalf("same config refused: %v", err)
				}
				for _, row := range c.Rows {
					if row.Tested && !(row.P >= 0 && row.P <= 1) || math.IsNaN(row.P) {
						t.Fatalf("%s: p = %v", row.Metric, row.P)
					}
					if row.Significant && !row.Tested {
						t.Fatalf("%s: significant without a test", row.Metric)
					}
				}
				var out bytes.Buffer
				if err := Text(&out, c); err != nil {
					t.Fatal(err)
				}
				if err := Markdown(&out, c); err != nil {
					t.Fatal(err)
				}
				if err := JSON(&out, c); err != nil {
					t.Fatal(err)
				}
				if err := JUnit(&out, c); err != nil {
					t.Fatal(err)
				}
				for _, v := range c.Gates.Verdicts {
					if v.Tested && !(v.P >= 0 && v.P <= 1) {
						t.Fatalf("%s: p = %v", v.Gate.Expr, v.P)
					}
				}
				if set, err := JudgeBaseline(sides[0][0], sides[1][0], c.Gates.gates(), BaselineOptions{}); err != nil || len(set.Verdicts) != 4 {
					t.Fatalf("baseline: %v", err)
				}
				if strings.Contains(out.String(), "NaN") {
					t.Fatalf("NaN in output:\n%s", out.String())
				}
			}
		}
	})
}
