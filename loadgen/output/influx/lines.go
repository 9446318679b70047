package influx

import (
	"math"
	"strconv"
	"strings"
)

// Escapers of InfluxDB's line protocol: measurement names escape commas
// and spaces; tag keys and values also escape equal signs; string field
// values are quoted with their quotes and backslashes escaped. Newlines
// would end a line, so they are escaped as JMeter does (\n).
var (
	measurementEscaper = strings.NewReplacer(",", `\,`, " ", `\ `, "\n", `\n`)
	tagEscaper         = strings.NewReplacer(",", `\,`, "=", `\=`, " ", `\ `, "\n", `\n`)
	fieldEscaper       = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
)

// line builds one line of the protocol into a reused buffer.
type line struct {
	b      []byte
	fields int
}

func (l *line) start(measurement string) {
	l.b = append(l.b, measurementEscaper.Replace(measurement)...)
	l.fields = 0
}

func (l *line) tag(key, value string) {
	if value == "" {
		return // the protocol has no empty tag values
	}
	l.b = append(l.b, ',')
	l.b = append(l.b, tagEscaper.Replace(key)...)
	l.b = append(l.b, '=')
	l.b = append(l.b, tagEscaper.Replace(value)...)
}

func (l *line) sep() {
	if l.fields == 0 {
		l.b = append(l.b, ' ')
	} else {
		l.b = append(l.b, ',')
	}
	l.fields++
}

// num writes a float field as JMeter does (no integer suffix); a value
// that is not a number is left out, as JMeter leaves out a NaN mean.
func (l *line) num(key string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	l.sep()
	l.b = append(l.b, key...)
	l.b = append(l.b, '=')
	l.b = strconv.AppendFloat(l.b, v, 'f', -1, 64)
}

func (l *line) str(key, v string) {
	l.sep()
	l.b = append(l.b, key...)
	l.b = append(l.b, `="`...)
	l.b = append(l.b, fieldEscaper.Replace(v)...)
	l.b = append(l.b, '"')
}

// end closes the line with its timestamp in nanoseconds.
func (l *line) end(ns int64) {
	l.b = append(l.b, ' ')
	l.b = strconv.AppendInt(l.b, ns, 10)
	l.b = append(l.b, '\n')
}

// pctField names a percentile's field as JMeter does: "pct" and the
// percentile as Java prints a float (99 → pct99.0, 99.9 → pct99.9).
func pctField(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 32)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return "pct" + s
}
