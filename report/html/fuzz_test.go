package html

import (
	"bytes"
	"strings"
	"testing"

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
