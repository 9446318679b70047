package format

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/vesload/vesload/report/table"
)

// Printer writes formatted text and keeps the first write error, so that
// renderers read as a sequence of lines and check for failure once: the
// text renderings of results, comparisons and histories share it.
//
// What it writes comes from files (labels, names, warnings a result
// carries), so it is where the text renderings escape control characters
// (table.EscapeControlLines): every string, error or Stringer argument of
// Printf is escaped, the format (the renderer's own text) is not, and
// neither is a Styled argument, which its maker escaped.
type Printer struct {
	w   io.Writer
	err error
}

// Styled is text a renderer decorated for a terminal (ANSI colours), its
// text already escaped: Printer writes it as it is.
type Styled string

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

// Printf writes as fmt.Fprintf does, unless a write failed before, with
// the control characters of its text arguments escaped.
func (p *Printer) Printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	escaped := make([]any, len(args))
	for i, a := range args {
		escaped[i] = escapeArg(a)
	}
	_, p.err = fmt.Fprintf(p.w, format, escaped...)
}

// escapeArg escapes the control characters of an argument that is text:
// a string (of any string type), a list of strings or an error.
func escapeArg(a any) any {
	switch v := a.(type) {
	case Styled:
		return string(v)
	case string:
		return table.EscapeControlLines(v)
	case []string:
		out := make([]string, len(v))
		for i, s := range v {
			out[i] = table.EscapeControlLines(s)
		}
		return out
	case error:
		return table.EscapeControlLines(v.Error())
	}
	if v := reflect.ValueOf(a); v.Kind() == reflect.String {
		return table.EscapeControlLines(v.String())
	}
	return a
}

// Println writes s on a line of its own.
func (p *Printer) Println(s string) { p.Printf("%s\n", s) }

// Lines prints each of ls on a line of its own (a rendered table, whose
// cells the table escaped and whose Style may have coloured them).
func (p *Printer) Lines(ls []string) {
	for _, l := range ls {
		p.Printf("%s\n", Styled(l))
	}
}

// Wrapped prints text wrapped at 100 columns after prefix, its
// continuation lines indented under the first.
func (p *Printer) Wrapped(prefix, text string) {
	n := utf8.RuneCountInString(prefix)
	indent := strings.Repeat(" ", n)
	for i, l := range Wrap(text, 100-n) {
		if i == 0 {
			p.Println(prefix + l)
		} else {
			p.Println(indent + l)
		}
	}
}

// Err is the first write error, nil when every write succeeded.
func (p *Printer) Err() error { return p.err }

// Wrap breaks text into lines of at most width characters at spaces; the
// text renderings of results and comparisons share it.
func Wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
