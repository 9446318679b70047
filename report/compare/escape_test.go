package compare

import (
	"bytes"
	"testing"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// TestRenderingsEscapeHostileText: side names and labels read from the
// result files reach compare's text and Markdown renderings escaped.
func TestRenderingsEscapeHostileText(t *testing.T) {
	t.Parallel()
	evil := "x\x1b[31my\u202ez\x9b\a\u2066\x7f"
	label := func(rs []*result.Result) []*result.Result {
		for _, r := range rs {
			r.Config.Labels = map[string]string{"build" + evil: evil}
			r.Config.Profile = "p" + evil
		}
		return rs
	}
	a := label(side(t, 10, 1, 1.00, 1.03, 0.98))
	b := label(side(t, 13, 10, 1.01, 0.99, 1.02))
	gs, err := ParseGates([]string{"p99<+10%"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare(a, b, Options{NameA: "a" + evil, NameB: "b" + evil, Gates: gs})
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckRenderingsEscaped(t, map[string]func(*bytes.Buffer) error{
		"text":     func(w *bytes.Buffer) error { return Text(w, c) },
		"markdown": func(w *bytes.Buffer) error { return Markdown(w, c) },
	})
}
