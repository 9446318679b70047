package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/vesload/vesload/report/format"
)

// na stands for a figure the result does not have.
const na = format.NA

// Printer writes formatted text and keeps the first write error, so that
// renderers read as a sequence of lines and check for failure once: the
// text renderings of results, comparisons and histories share it.
type Printer struct {
	w   io.Writer
	err error
}

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

// Printf writes as fmt.Fprintf does, unless a write failed before.
func (p *Printer) Printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// Println writes s on a line of its own.
func (p *Printer) Println(s string) { p.Printf("%s\n", s) }

// Lines prints each of ls on a line of its own (a rendered table).
func (p *Printer) Lines(ls []string) {
	for _, l := range ls {
		p.Println(l)
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
