package table

import (
	"slices"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	t.Parallel()
	tb := Table{Cols: []Column{Left("name"), Right("count"), Left("note")}}
	tb.Add("fault", "1,200", "ok")
	tb.Add("measurementé", "7") // short row, multi-byte rune
	tb.Add("a", "1", "x", "ignored")
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"plain", tb.Plain("  "), []string{
			"  name          count  note",
			"  fault         1,200  ok",
			"  measurementé      7",
			"  a                 1  x",
		}},
		{"pipe", tb.Pipe(""), []string{
			"| name         | count | note |",
			"| ------------ | ----: | ---- |",
			"| fault        | 1,200 | ok   |",
			"| measurementé |     7 |      |",
			"| a            |     1 | x    |",
		}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, strings.Join(tt.got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

func TestPlainWithoutTitlesHasNoHeader(t *testing.T) {
	t.Parallel()
	tb := Table{Cols: []Column{Left(""), Right("")}}
	tb.Add("sent", "10")
	tb.Add("ok", "9")
	if got, want := tb.Plain(""), []string{"sent  10", "ok     9"}; !slices.Equal(got, want) {
		t.Errorf("Plain = %q, want %q", got, want)
	}
}

// The style wraps body cells after padding (spaces included), so colour
// codes never shift the columns, and leaves the header alone.
func TestStyleSkipsHeaderAndKeepsWidths(t *testing.T) {
	t.Parallel()
	tb := Table{Cols: []Column{Left("Result")}, Style: func(_, _ int, s string) string { return "<" + s + ">" }}
	tb.Add("PASS")
	tb.Add("FAILED")
	want := []string{"| Result |", "| ------ |", "| <PASS  > |", "| <FAILED> |"}
	if got := tb.Pipe(""); !slices.Equal(got, want) {
		t.Errorf("Pipe = %q, want %q", got, want)
	}
}

func TestEscapeCell(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"a|b":           `a\|b`,
		"two\nlines  x": "two lines x",
		"":              "",
	}
	for in, want := range tests {
		if got := EscapeCell(in); got != want {
			t.Errorf("EscapeCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeText(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"build=1.9.1":        "build=1.9.1",
		"*c* `d` _e_":        "\\*c\\* \\`d\\` \\_e\\_",
		`a\b [l](u) <x> a|b`: `a\\b \[l\](u) \<x\> a|b`,
	}
	for in, want := range tests {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
}
