// Package table lays rows of text cells out as aligned columns: plain for a
// terminal, or as a Markdown pipe table for a wiki page. Every text
// rendering of results and comparisons uses it, so that they align and
// escape the same way.
//
// It must not format numbers or know what a result is: callers pass the
// cells as they are to be shown.
package table

import (
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
// only when some column has a title.
func (t *Table) Plain(indent string) []string {
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
// given: escape them with EscapeCell first.
func (t *Table) Pipe(indent string) []string {
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
