package html

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/capcmp"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// FuzzReport renders any document Decode accepts: Report must not fail
// or panic, the page stays complete, no input adds or ends a script
// element, and the chart data stays valid JSON.
func FuzzReport(f *testing.F) {
	for _, r := range []*result.Result{synthRun(f, 10, 1, 5), {Schema: result.Schema}} {
		var b bytes.Buffer
		if err := resultfile.Encode(&b, r); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := resultfile.Decode(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Report(&b, r); err != nil {
			t.Fatalf("render: %v", err)
		}
		page := b.String()
		if !strings.HasSuffix(page, "</html>\n") {
			t.Fatalf("incomplete page:\n%.500s", page)
		}
		open, closing := strings.Count(strings.ToLower(page), "<script"), strings.Count(strings.ToLower(page), "</script")
		if (open != 0 && open != 4) || closing != open {
			t.Fatalf("%d script elements opened, %d closed, want 0 or 4 of each", open, closing)
		}
		pageCharts(t, page)
	})
}

// FuzzCapacityDocuments renders any capacity document the JSON decoder
// accepts (what compare and trend read from a file) as a search's page,
// compares it with itself and follows it as a history of two builds: no
// rendering may fail or panic, and every page stays complete.
func FuzzCapacityDocuments(f *testing.F) {
	seed, err := json.Marshal(reporttest.Capacity())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"schema":"vesload/capacity/v1","capacity":{"max_rps":-1,"fail_rps":1e308,"steps":[{"n":-3,"offered_rps":-5,"e2e_p99_ms":1e300}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d result.CapacityDocument
		if json.Unmarshal(data, &d) != nil {
			return
		}
		var b bytes.Buffer
		if err := Capacity(&b, &d); err != nil {
			t.Fatalf("render: %v", err)
		}
		if !strings.HasSuffix(b.String(), "</html>\n") {
			t.Fatalf("incomplete page:\n%.500s", b.String())
		}
		docs := []*result.CapacityDocument{&d}
		c, err := capcmp.Compare("a", "b", []string{"a.json"}, []string{"b.json"}, docs, docs, nil, compare.UndecidedFail)
		if err != nil {
			return // refused with a reason, as compare says it
		}
		b.Reset()
		if err := CapacityComparison(&b, c, docs, docs); err != nil {
			t.Fatalf("comparison page: %v", err)
		}
		h, err := capcmp.Trend([]*result.CapacityDocument{&d, &d}, []string{"1.json", "2.json"}, capcmp.TrendOptions{})
		if err != nil {
			return
		}
		b.Reset()
		if err := CapacityTrend(&b, h); err != nil {
			t.Fatalf("history page: %v", err)
		}
	})
}
