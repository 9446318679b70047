package table

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeControl(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, lines string }{
		{"build 1.9", "build 1.9", "build 1.9"},
		{"\x1b[31mred", `\x1b[31mred`, `\x1b[31mred`},
		{"a\u202eb", `a\u202eb`, `a\u202eb`},
		{"\u2066x\u2069\u200f\u061c", `\u2066x\u2069\u200f\u061c`, `\u2066x\u2069\u200f\u061c`},
		{"bell\a del\x7f nul\x00", `bell\x07 del\x7f nul\x00`, `bell\x07 del\x7f nul\x00`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`, `c1 \u0085 \u009b`},
		{"raw csi \x9b2J", `raw csi \x9b2J`, `raw csi \x9b2J`},
		{"two\nlines\tand\r", `two\x0alines\x09and\x0d`, "two\nlines\tand\\x0d"},
		{"é ü 日本 \\x1b", "é ü 日本 \\x1b", "é ü 日本 \\x1b"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := EscapeControl(tt.in); got != tt.want {
			t.Errorf("EscapeControl(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := EscapeControlLines(tt.in); got != tt.lines {
			t.Errorf("EscapeControlLines(%q) = %q, want %q", tt.in, got, tt.lines)
		}
		if got := EscapeControl(EscapeControl(tt.in)); got != tt.want {
			t.Errorf("escaping %q twice gives %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A table escapes its cells and titles before measuring them, so that the
// columns still align; Style decorates what was escaped.
func TestTableEscapesCells(t *testing.T) {
	t.Parallel()
	tb := &Table{Cols: []Column{Left("run\x1b[1m"), Right("p99")}}
	tb.Add("\x1b[31mevil\u202e", "5")
	tb.Add("ok", "10")
	tb.Style = func(row, col int, s string) string { return "<" + s + ">" }
	plain := strings.Join(tb.Plain(""), "\n")
	want := `run\x1b[1m          p99
<\x1b[31mevil\u202e>  <  5>
<ok                >  < 10>`
	if plain != want {
		t.Errorf("Plain:\n%s\nwant\n%s", plain, want)
	}
	pipe := strings.Join(tb.Pipe(""), "\n")
	if strings.ContainsAny(pipe, "\x1b\u202e") || !strings.Contains(pipe, `\x1b[31mevil\u202e`) {
		t.Errorf("Pipe leaves control characters:\n%q", pipe)
	}
}

// TestEscapeJSON: bidirectional marks and C1 controls in JSON text become
// \u escapes that decode to the same text; other text is left alone.
func TestEscapeJSON(t *testing.T) {
	t.Parallel()
	raw := map[string]string{"label": "a\u202eb\u0085c é ✓"}
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(b)
	if strings.ContainsRune(string(got), 0x202e) || strings.ContainsRune(string(got), 0x85) {
		t.Fatalf("raw marks left in %s", got)
	}
	if !strings.Contains(string(got), `\u202e`) || !strings.Contains(string(got), "é ✓") {
		t.Fatalf("escaped %s, want \\u202e and the printable text as it was", got)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["label"] != raw["label"] {
		t.Fatalf("read back %q, %v; want %q", back["label"], err, raw["label"])
	}
	if plain := []byte(`{"a":"b"}`); &EscapeJSON(plain)[0] != &plain[0] {
		t.Error("clean JSON was copied")
	}
}
