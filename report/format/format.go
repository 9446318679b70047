// Package format holds the one way every rendering of a result writes a
// figure (text, Markdown, CSV, JUnit, HTML, the live line): latencies in
// milliseconds, percentages, rates and other figures for people, exact
// figures for machines, durations, byte counts. A figure reads the same in
// the summary, the HTML report and the table a script parses.
//
// It formats numbers only; units and layout are the renderer's.
package format

import (
	"math"
	"strconv"
	"time"
)

// NA stands for a figure that is missing or not a number.
const NA = "n/a"

// Ms formats a latency in milliseconds with two decimals, the precision
// of the ONAP seed tables.
func Ms(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// Duration formats a latency as Ms does, from a time.Duration.
func Duration(d time.Duration) string { return Ms(float64(d) / float64(time.Millisecond)) }

// Pct formats a percentage with two decimals, without its sign.
func Pct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// CPU formats a CPU share in percent of one core with one decimal, as
// top shows it.
func CPU(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// Num formats a figure for people: rounded to at most two decimals,
// without trailing zeros (a rate of 99.98, a target of 100); NA when it is
// not a number.
func Num(v float64) string { return Round(v, 2) }

// Round formats v rounded to at most digits decimals, without trailing
// zeros; NA when it is not a number.
func Round(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return NA
	}
	p := math.Pow(10, float64(digits))
	r := math.Round(v*p) / p
	if math.IsInf(r, 0) || math.IsNaN(r) {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Exact formats a figure for machines (CSV, JUnit properties): as short
// as it reads back to the same float64.
func Exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Shift formats a signed relative change in percent with one decimal
// ("+31.2%", "-4.0%"), as compare and trend mark a change: one that
// rounds to zero reads "0.0%" without a sign, and a change from zero
// "+inf%" or "-inf%"; NA when it is not a number.
func Shift(v float64) string {
	switch {
	case math.IsNaN(v):
		return NA
	case math.IsInf(v, 1):
		return "+inf%"
	case math.IsInf(v, -1):
		return "-inf%"
	case math.Abs(v) < 0.05:
		return "0.0%"
	case v > 0:
		return "+" + strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// PValue formats a test's p-value with three decimals, "<0.001" below
// that: a smaller figure only claims a precision the test does not have.
// NA when it is not a number.
func PValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return NA
	case p < 0.001:
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// Int formats a count.
func Int(n int64) string { return strconv.FormatInt(n, 10) }

// Seconds formats a duration given in seconds: whole seconds from a
// minute up, milliseconds below ("1m30s", "2.5s"); a value no duration
// holds is shown as a number of seconds.
func Seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return NA
	}
	if s < 0 || s > 1e9 {
		return Num(s) + "s"
	}
	d := time.Duration(s * float64(time.Second))
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

// Bytes formats a byte count with IEC units (KiB, MiB, …), as every
// rendering shows memory and payload sizes.
func Bytes(n int64) string {
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
