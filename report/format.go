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

// printer writes formatted text and keeps the first write error, so that
// renderers read as a sequence of lines and check for failure once.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

func (p *printer) println(s string) { p.printf("%s\n", s) }

// lines prints each of ls on a line of its own (a rendered table).
func (p *printer) lines(ls []string) {
	for _, l := range ls {
		p.println(l)
	}
}

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
