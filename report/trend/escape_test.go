package trend

import (
	"bytes"
	"testing"

	"github.com/vesload/vesload/report/internal/reporttest"
)

// TestRenderingsEscapeHostileText: the labels a history is ordered by and
// the names of its files reach trend's text and Markdown renderings
// escaped.
func TestRenderingsEscapeHostileText(t *testing.T) {
	t.Parallel()
	evil := "\x1b[31m\u202e\x9b\a\u2066\x7f"
	rs, names := history(build{"1.0" + evil, steady(1, 4, 10)}, build{"1.1" + evil, steady(2, 4, 20)})
	for i := range names {
		names[i] = "runs/" + evil + names[i]
		rs[i].Config.Profile = "p" + evil
	}
	a, err := Analyze(rs, Options{By: "build", Names: names, Metrics: []string{"p99"}, Gates: gates(t, "p99<+10%")})
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckRenderingsEscaped(t, map[string]func(*bytes.Buffer) error{
		"text":     func(w *bytes.Buffer) error { return Text(w, a) },
		"markdown": func(w *bytes.Buffer) error { return Markdown(w, a) },
	})
}
