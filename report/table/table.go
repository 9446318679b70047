// Package table lays rows of text cells out as aligned columns: plain for a
// terminal, or as a Markdown pipe table for a wiki page. Every text
// rendering of results and comparisons uses it, so that they align and
// escape the same way.
//
// It must not format numbers or know what a result is: callers pass the
// cells as they are to be shown.
package table

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Column describes one column of a table.
type Column struct {
	Title string
	Right bool // right-aligned (numbers)
}

// Left is a left-aligned column (text).
func Left(title string) Column { return Column{Title: title} }

// Right is a right-aligned column (numbers).
func Right(title string) Column { return Column{Title: title, Right: true} }

// Table is a grid of cells; a row may be shorter than Cols (the missing
// cells are empty) and cells beyond Cols are not shown.
type Table struct {
	Cols []Column
	Rows [][]string
	// Style, when set, decorates a body cell after padding, so that
	// colour codes do not count towards the column width.
	Style func(row, col int, padded string) string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Plain renders the table as aligned columns two spaces apart, each line
// prefixed by indent and without trailing spaces; the header line is there
// only when some column has a title. Control characters in cells are
// escaped (EscapeControl) before the widths are measured.
func (t *Table) Plain(indent string) []string {
	t = t.escaped()
	w := t.widths(0)
	var out []string
	line := func(row int, cells []string) {
		parts := make([]string, len(t.Cols))
		for i, c := range t.Cols {
			parts[i] = t.cell(row, i, pad(cellAt(cells, i), w[i], c.Right))
		}
		out = append(out, strings.TrimRight(indent+strings.Join(parts, "  "), " "))
	}
	for _, c := range t.Cols {
		if c.Title != "" {
			line(-1, t.titles())
			break
		}
	}
	for i, r := range t.Rows {
		line(i, r)
	}
	return out
}

// Pipe renders the table in Markdown: aligned pipes, and right-aligned
// columns marked "--:" so that wikis align them too. Cells are written as
// given but for control characters (EscapeControl): escape them with
// EscapeCell first.
func (t *Table) Pipe(indent string) []string {
	t = t.escaped()
	w := t.widths(3) // room for the "--:" marker
	var out []string
	line := func(row int, cells []string) {
		var b strings.Builder
		b.WriteString(indent + "|")
		for i, c := range t.Cols {
			b.WriteString(" " + t.cell(row, i, pad(cellAt(cells, i), w[i], c.Right)) + " |")
		}
		out = append(out, b.String())
	}
	seps := make([]string, len(t.Cols))
	for i, c := range t.Cols {
		seps[i] = strings.Repeat("-", w[i])
		if c.Right {
			seps[i] = seps[i][1:] + ":"
		}
	}
	line(-1, t.titles())
	line(-1, seps)
	for i, r := range t.Rows {
		line(i, r)
	}
	return out
}

// EscapeCell keeps a Markdown cell on one line and its pipes literal.
func EscapeCell(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "|", `\|`)), " ")
}

// markdownSpecial are the characters Markdown reads as emphasis, code,
// links or HTML in text; a cell's pipes are EscapeCell's.
var markdownSpecial = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)

// EscapeText keeps text a run was given (a profile name, label values)
// literal in Markdown: in a line, or in a cell with EscapeCell after it.
func EscapeText(s string) string { return markdownSpecial.Replace(s) }

// escaped is a copy of the table whose titles and cells have their
// control characters escaped; Style still decorates the padded cells.
func (t *Table) escaped() *Table {
	c := &Table{Cols: make([]Column, len(t.Cols)), Rows: make([][]string, len(t.Rows)), Style: t.Style}
	for i, col := range t.Cols {
		c.Cols[i] = Column{Title: EscapeControl(col.Title), Right: col.Right}
	}
	for i, r := range t.Rows {
		c.Rows[i] = make([]string, len(r))
		for j, cell := range r {
			c.Rows[i][j] = EscapeControl(cell)
		}
	}
	return c
}

// EscapeControl makes text read from a file safe to show on a terminal:
// every control character (C0 including tab and newline, DEL, C1), every
// bidirectional override, embedding, isolate or mark, and every byte that
// is not UTF-8 (a lone 0x9b is a CSI to some terminals) is written as a Go
// escape: "\x1b", "\u202e", "\x9b". A label "\x1b[31m" would otherwise
// colour the rest of a summary and a U+202E reverse it. Printable text,
// backslashes included, is left as it is, so escaping twice changes
// nothing. Every text and Markdown rendering goes through it: the tables
// here, report's Printer for lines.
func EscapeControl(s string) string { return escapeControl(s, false) }

// EscapeControlLines is EscapeControl that keeps newlines and tabs: for
// text made of lines, such as what report's Printer writes.
func EscapeControlLines(s string) string { return escapeControl(s, true) }

func escapeControl(s string, keepLines bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || keepLines && (c == '\n' || c == '\t') {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if c >= 0x80 && !unsafeRune(r, n) {
			i += n
			continue
		}
		break
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r, n):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune tells the runes at or above 0x80 that EscapeControl escapes:
// C1 controls, bidirectional formatting, and bytes that are not UTF-8.
// EscapeJSON writes JSON text with its C1 controls and bidirectional
// marks as \u escapes, which JSON decoders read back as the same text:
// a JSON rendering printed on a terminal (compare --format json) must no
// more reverse or colour it than a text one. The encoder has already
// escaped C0 controls and replaced bytes that are not UTF-8.
func EscapeJSON(b []byte) []byte {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if b[i] >= 0x80 && unsafeRune(r, n) && r != utf8.RuneError {
			out := make([]byte, 0, len(b)+16)
			out = append(out, b[:i]...)
			for ; i < len(b); i += n {
				r, n = utf8.DecodeRune(b[i:])
				if b[i] >= 0x80 && unsafeRune(r, n) && r != utf8.RuneError {
					out = fmt.Appendf(out, `\u%04x`, r)
				} else {
					out = append(out, b[i:i+n]...)
				}
			}
			return out
		}
		i += n
	}
	return b
}

func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r >= 0x80 && r < 0xa0: // C1
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // Arabic letter mark, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	}
	return false
}

func (t *Table) titles() []string {
	titles := make([]string, len(t.Cols))
	for i, c := range t.Cols {
		titles[i] = c.Title
	}
	return titles
}

// widths are the column widths in runes, at least least each.
func (t *Table) widths(least int) []int {
	w := make([]int, len(t.Cols))
	for i, c := range t.Cols {
		w[i] = max(least, utf8.RuneCountInString(c.Title))
	}
	for _, r := range t.Rows {
		for i := range t.Cols {
			w[i] = max(w[i], utf8.RuneCountInString(cellAt(r, i)))
		}
	}
	return w
}

// cell applies the style hook to body cells; row -1 is the header.
func (t *Table) cell(row, col int, padded string) string {
	if t.Style == nil || row < 0 {
		return padded
	}
	return t.Style(row, col, padded)
}

func cellAt(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}

func pad(s string, width int, right bool) string {
	n := width - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
