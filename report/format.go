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

// lines prints each of ls on a line of its own (a rendered table).
func (p *printer) lines(ls []string) {
	for _, l := range ls {
		p.println(l)
	}
}

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
