package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// FuzzReport renders any document Decode accepts: Report must not fail
// or panic, and the page stays complete and free of scripts.
func FuzzReport(f *testing.F) {
	for _, r := range []*result.Result{synthRun(f, 10, 1, 5), {Schema: result.Schema}} {
		var b bytes.Buffer
		if err := report.Encode(&b, r); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := report.Decode(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Report(&b, r); err != nil {
			t.Fatalf("render: %v", err)
		}
		page := b.String()
		if !strings.HasSuffix(page, "</html>\n") || strings.Contains(strings.ToLower(page), "<script") {
			t.Fatalf("incomplete page or a script in it:\n%.500s", page)
		}
	})
}
