package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// na stands for a figure the result does not have.
const na = "n/a"

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

// fmtMs formats a latency in milliseconds with two decimals, the precision
// of the ONAP seed tables.
func fmtMs(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// fmtPct formats a percentage with two decimals.
func fmtPct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// fmtNum formats a plain number as short as it round-trips.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// fmtRate formats a request rate with up to two decimals.
func fmtRate(v float64) string { return fmtRound(v, 2) }

// fmtRound formats v rounded to at most digits decimals, without trailing
// zeros: precise enough for machines, short enough for people.
func fmtRound(v float64, digits int) string {
	p := math.Pow(10, float64(digits))
	r := math.Round(v*p) / p
	if math.IsInf(r, 0) || math.IsNaN(r) {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
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

// FormatBytes formats a byte count with IEC units (KiB, MiB, …), as every
// rendering shows memory and payload sizes.
func FormatBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := -1
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}

// fmtSeconds formats a duration given in seconds: whole seconds from a
// minute up, milliseconds below.
func fmtSeconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s > 1e9 {
		return fmtNum(s) + "s"
	}
	d := time.Duration(s * float64(time.Second))
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

// redactURL hides passwords embedded in URLs ("user:pass@host"), also
// inside longer strings such as "metrics:https://u:p@host/…". Results are
// redacted by their writer, but a renderer must not be the place a secret
// leaks if one slipped through.
func redactURL(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexAny(s, "/?# \t")
		if end < 0 {
			end = len(s)
		}
		authority := s[:end]
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			if colon := strings.IndexByte(authority[:at], ':'); colon >= 0 {
				authority = authority[:colon] + ":xxxxx" + authority[at:]
			}
		}
		b.WriteString(authority)
		s = s[end:]
	}
}

// column describes one column of a table.
type column struct {
	title string
	right bool // right-aligned (numbers)
}

// table is a grid of cells rendered either as a Markdown pipe table or as
// plain aligned columns.
type table struct {
	cols []column
	rows [][]string
	// style, when set, decorates a body cell after padding (colour codes
	// must not count towards the column width).
	style func(row, col int, padded string) string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) widths() []int {
	w := make([]int, len(t.cols))
	for i, c := range t.cols {
		w[i] = utf8.RuneCountInString(c.title)
	}
	for _, r := range t.rows {
		for i := range t.cols {
			if i < len(r) {
				w[i] = max(w[i], utf8.RuneCountInString(r[i]))
			}
		}
	}
	return w
}

// pipe renders the table in Markdown: aligned pipes, right-aligned
// numeric columns marked "--:" so wikis align them too.
func (t *table) pipe(p *printer, indent string) {
	w := t.widths()
	for i := range w {
		w[i] = max(w[i], 3) // room for the "--:" marker
	}
	line := func(row int, cells []string) {
		var b strings.Builder
		b.WriteString(indent + "|")
		for i, c := range t.cols {
			b.WriteString(" " + t.cell(row, i, pad(cellAt(cells, i), w[i], c.right)) + " |")
		}
		p.println(b.String())
	}
	titles := make([]string, len(t.cols))
	seps := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.title
		seps[i] = strings.Repeat("-", w[i])
		if c.right {
			seps[i] = seps[i][1:] + ":"
		}
	}
	line(-1, titles)
	line(-1, seps)
	for i, r := range t.rows {
		line(i, r)
	}
}

// plain renders the table as aligned columns without borders; header is
// printed only when some column has a title.
func (t *table) plain(p *printer, indent string) {
	w := t.widths()
	line := func(row int, cells []string) {
		parts := make([]string, len(t.cols))
		for i, c := range t.cols {
			parts[i] = pad(cellAt(cells, i), w[i], c.right)
			parts[i] = t.cell(row, i, parts[i])
		}
		p.println(strings.TrimRight(indent+strings.Join(parts, "  "), " "))
	}
	for _, c := range t.cols {
		if c.title != "" {
			titles := make([]string, len(t.cols))
			for i, c := range t.cols {
				titles[i] = c.title
			}
			line(-1, titles)
			break
		}
	}
	for i, r := range t.rows {
		line(i, r)
	}
}

// cell applies the style hook to body cells; row -1 is the header.
func (t *table) cell(row, col int, padded string) string {
	if t.style == nil || row < 0 {
		return padded
	}
	return t.style(row, col, padded)
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

// escapeCell keeps a Markdown cell on one line and its pipes literal.
func escapeCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
