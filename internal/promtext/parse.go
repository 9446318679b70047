package promtext

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format says which of the two text formats a body is in.
type Format uint8

// The formats Parse reads.
const (
	// Text is the Prometheus text format, version 0.0.4.
	Text Format = iota
	// OpenMetrics is the OpenMetrics 1.0 text format: a # EOF line ends
	// it, UNIT lines and exemplars may appear, and a counter family foo
	// has the samples foo_total and foo_created.
	OpenMetrics
)

// Accept asks for the text format first, the cheapest to produce and to
// read and what client_golang and Spring's actuator serve by default, and
// OpenMetrics for endpoints that serve nothing else. It leaves out the
// delimited protobuf format, which Parse does not read.
const Accept = "text/plain;version=0.0.4;q=1,application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1"

// FormatOf picks the format from a response's Content-Type: OpenMetrics
// when it says so, the text format for anything else.
func FormatOf(contentType string) Format {
	mt, _, _ := strings.Cut(contentType, ";")
	if strings.EqualFold(strings.TrimSpace(mt), "application/openmetrics-text") {
		return OpenMetrics
	}
	return Text
}

// Sample is one line of an exposition.
type Sample struct {
	// Name is the sample's own name, such as foo_bucket or foo_total.
	Name   string
	Labels []Label
	Value  float64
	// Family is the family the sample belongs to (foo for foo_bucket
	// after # TYPE foo histogram), and Type that family's type. A sample
	// outside any declared family is its own family, Untyped.
	Family string
	Type   Type
}

// Label returns the value of the named label, and whether it is there.
func (s *Sample) Label(name string) (string, bool) { return labelValue(s.Labels, name) }

// IsValue reports whether the sample is a counter's, gauge's or untyped
// family's value, rather than a part of a histogram or summary (a bucket,
// a quantile, a sum or a count) or an OpenMetrics info or state set.
func (s *Sample) IsValue() bool {
	switch s.Type {
	case Untyped, Gauge:
		return true
	case Counter:
		return !strings.HasSuffix(s.Name, "_created") || s.Name == s.Family
	}
	return false
}

// ErrSyntax is wrapped by every error Parse returns for a malformed body.
var ErrSyntax = errors.New("malformed exposition")

// Parse reads a whole exposition. It keeps every sample, in order, and
// drops comments, HELP and UNIT text, timestamps and exemplars. A
// malformed body is an error naming the line; Parse never panics.
func Parse(body []byte, f Format) ([]Sample, error) {
	p := parser{format: f, declared: map[string]Type{}, sampled: map[string]struct{}{}}
	for lineNo := 1; len(body) > 0; lineNo++ {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		if p.eof {
			if f == OpenMetrics && len(line) == 0 && len(body) == 0 {
				break // the line feed that ends # EOF
			}
			return nil, fmt.Errorf("%w: line %d: content after # EOF", ErrSyntax, lineNo)
		}
		if err := p.line(line); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrSyntax, lineNo, err)
		}
	}
	return p.samples, nil
}

// parser holds what one Parse has read so far.
type parser struct {
	format   Format
	samples  []Sample
	declared map[string]Type     // families with a TYPE line
	sampled  map[string]struct{} // families with samples
	family   string              // the last family a TYPE line declared
	famType  Type
	eof      bool
}

func (p *parser) line(line []byte) error {
	if !utf8.Valid(line) {
		return errors.New("not UTF-8")
	}
	s := string(line)
	if p.format == Text {
		s = strings.TrimLeft(s, " \t")
	}
	switch {
	case s == "":
		if p.format == OpenMetrics {
			return errors.New("empty line")
		}
		return nil
	case s[0] == '#':
		return p.comment(s)
	}
	return p.sample(s)
}

// comment reads a # line: HELP, TYPE, UNIT and EOF matter, the rest of
// the text format's comments are ignored.
func (p *parser) comment(s string) error {
	if s == "# EOF" && p.format == OpenMetrics {
		p.eof = true
		return nil
	}
	fields := strings.SplitN(strings.TrimLeft(s[1:], " \t"), " ", 3)
	if len(fields) < 2 {
		if p.format == OpenMetrics {
			return fmt.Errorf("comment %q: OpenMetrics has only HELP, TYPE, UNIT and EOF", s)
		}
		return nil
	}
	switch fields[0] {
	case "TYPE":
		if len(fields) != 3 {
			return fmt.Errorf("TYPE line %q: want a name and a type", s)
		}
		return p.declare(fields[1], strings.TrimSpace(fields[2]))
	case "HELP", "UNIT":
		if !validMetricName(fields[1]) {
			return fmt.Errorf("%s line: invalid metric name %q", fields[0], fields[1])
		}
		return nil
	}
	if p.format == OpenMetrics {
		return fmt.Errorf("comment %q: OpenMetrics has only HELP, TYPE, UNIT and EOF", s)
	}
	return nil
}

// declare starts a family on a TYPE line.
func (p *parser) declare(name, typ string) error {
	if !validMetricName(name) {
		return fmt.Errorf("TYPE line: invalid metric name %q", name)
	}
	t, ok := parseType(typ, p.format)
	if !ok {
		return fmt.Errorf("TYPE line for %s: unknown type %q", name, typ)
	}
	if _, dup := p.declared[name]; dup {
		return fmt.Errorf("second TYPE line for %s", name)
	}
	if _, ok := p.sampled[name]; ok {
		return fmt.Errorf("TYPE line for %s after its samples", name)
	}
	p.declared[name] = t
	p.family, p.famType = name, t
	return nil
}

func parseType(s string, f Format) (Type, bool) {
	switch s {
	case "counter":
		return Counter, true
	case "gauge":
		return Gauge, true
	case "histogram":
		return Histogram, true
	case "summary":
		return Summary, true
	case "untyped":
		return Untyped, f == Text
	case "unknown":
		return Untyped, f == OpenMetrics
	case "gaugehistogram":
		return GaugeHistogram, f == OpenMetrics
	case "info":
		return Info, f == OpenMetrics
	case "stateset":
		return StateSet, f == OpenMetrics
	}
	return 0, false
}

// suffixes lists the sample names a family of each type may have beside
// its own name.
var suffixes = map[Type][]string{
	Counter:        {"_total", "_created"},
	Histogram:      {"_bucket", "_sum", "_count", "_created"},
	Summary:        {"_sum", "_count", "_created"},
	GaugeHistogram: {"_bucket", "_gsum", "_gcount"},
	Info:           {"_info"},
}

// familyOf returns the family a sample name belongs to: the current one
// when the name is its name or one of its type's suffixed names, else the
// sample's own untyped family.
func (p *parser) familyOf(name string) (string, Type) {
	if p.family != "" && strings.HasPrefix(name, p.family) {
		rest := name[len(p.family):]
		if rest == "" {
			return p.family, p.famType
		}
		for _, s := range suffixes[p.famType] {
			if rest == s {
				if p.format == Text && p.famType == Counter {
					break // foo_total is its own family in the text format
				}
				return p.family, p.famType
			}
		}
	}
	if t, ok := p.declared[name]; ok {
		return name, t
	}
	return name, Untyped
}

// sample reads name{labels} value [timestamp] [# exemplar].
func (p *parser) sample(s string) error {
	name, labels, rest, err := parseSeries(s)
	if err != nil {
		return err
	}
	value, rest, err := p.valueAndTimestamp(rest)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if rest != "" {
		if p.format != OpenMetrics || !strings.HasPrefix(rest, "# ") {
			return fmt.Errorf("%s: unexpected %q after the value", name, rest)
		}
		if err := p.exemplar(rest[2:]); err != nil {
			return fmt.Errorf("%s: exemplar: %w", name, err)
		}
	}
	fam, t := p.familyOf(name)
	if (t == Histogram || t == GaugeHistogram) && strings.HasSuffix(name, "_bucket") {
		if _, ok := labelValue(labels, "le"); !ok {
			return fmt.Errorf("%s: bucket without a le label", name)
		}
	}
	p.sampled[fam] = struct{}{}
	p.samples = append(p.samples, Sample{Name: name, Labels: labels, Value: value, Family: fam, Type: t})
	return nil
}

// valueAndTimestamp reads " value [timestamp]" and returns what follows,
// past one blank.
func (p *parser) valueAndTimestamp(s string) (float64, string, error) {
	s, ok := cutBlank(s)
	if !ok {
		return 0, "", errors.New("no value")
	}
	tok, rest := token(s)
	v, err := parseValue(tok)
	if err != nil {
		return 0, "", err
	}
	rest, _ = cutBlank(rest)
	if rest == "" || rest[0] == '#' {
		return v, rest, nil
	}
	tok, rest = token(rest)
	if err := p.timestamp(tok); err != nil {
		return 0, "", err
	}
	rest, _ = cutBlank(rest)
	return v, rest, nil
}

// timestamp checks a sample's timestamp: integer milliseconds in the text
// format, seconds (possibly fractional) in OpenMetrics.
func (p *parser) timestamp(tok string) error {
	if p.format == Text {
		if _, err := strconv.ParseInt(tok, 10, 64); err != nil {
			return fmt.Errorf("timestamp %q: want integer milliseconds", tok)
		}
		return nil
	}
	if _, err := parseValue(tok); err != nil {
		return fmt.Errorf("timestamp %q: want seconds", tok)
	}
	return nil
}

// exemplar checks an OpenMetrics exemplar: {labels} value [timestamp].
func (p *parser) exemplar(s string) error {
	if s == "" || s[0] != '{' {
		return errors.New("want {labels}")
	}
	_, rest, err := parseLabels(s[1:], false)
	if err != nil {
		return err
	}
	_, rest, err = p.valueAndTimestamp(rest)
	if err != nil {
		return err
	}
	if rest != "" {
		return fmt.Errorf("unexpected %q", rest)
	}
	return nil
}

// parseSeries reads a metric name and its labels: name, name{…}, or the
// quoted form {"name", …} that names outside the classic character set
// use.
func parseSeries(s string) (name string, labels []Label, rest string, err error) {
	if s[0] == '{' {
		labels, rest, err = parseLabels(s[1:], true)
		if err != nil {
			return "", nil, "", err
		}
		if len(labels) == 0 || labels[0].Name != "" {
			return "", nil, "", errors.New("a sample line starting with { must name its metric first")
		}
		return labels[0].Value, labels[1:], rest, nil
	}
	i := 0
	for i < len(s) && isNameChar(s[i], i == 0, true) {
		i++
	}
	if i == 0 {
		return "", nil, "", fmt.Errorf("invalid metric name at %q", clip(s))
	}
	name, rest = s[:i], s[i:]
	if rest != "" && rest[0] == '{' {
		labels, rest, err = parseLabels(rest[1:], false)
		if err != nil {
			return "", nil, "", fmt.Errorf("%s: %w", name, err)
		}
	}
	return name, labels, rest, nil
}

// parseLabels reads label pairs after a {, up to and past the }. With
// nameFirst, the first item may be a quoted metric name, returned as a
// label without a name.
func parseLabels(s string, nameFirst bool) ([]Label, string, error) {
	var labels []Label
	for first := true; ; first = false {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, "", errors.New("labels not closed with }")
		}
		if s[0] == '}' {
			return labels, s[1:], nil
		}
		var ln string
		var err error
		if s[0] == '"' {
			ln, s, err = quoted(s)
			if err != nil {
				return nil, "", fmt.Errorf("label name: %w", err)
			}
		} else {
			i := 0
			for i < len(s) && isNameChar(s[i], i == 0, false) {
				i++
			}
			if i == 0 {
				return nil, "", fmt.Errorf("invalid label name at %q", clip(s))
			}
			ln, s = s[:i], s[i:]
		}
		s = strings.TrimLeft(s, " \t")
		switch {
		case first && nameFirst && s != "" && (s[0] == ',' || s[0] == '}'):
			labels = append(labels, Label{Value: ln}) // the quoted metric name
		case s == "" || s[0] != '=':
			return nil, "", fmt.Errorf("label %s: want =", ln)
		default:
			s = strings.TrimLeft(s[1:], " \t")
			if s == "" || s[0] != '"' {
				return nil, "", fmt.Errorf("label %s: want a quoted value", ln)
			}
			var v string
			v, s, err = quoted(s)
			if err != nil {
				return nil, "", fmt.Errorf("label %s: %w", ln, err)
			}
			if _, dup := labelValue(labels, ln); dup {
				return nil, "", fmt.Errorf("label %s given twice", ln)
			}
			labels = append(labels, Label{Name: ln, Value: v})
		}
		s = strings.TrimLeft(s, " \t")
		switch {
		case s == "":
			return nil, "", errors.New("labels not closed with }")
		case s[0] == ',':
			s = s[1:]
		case s[0] != '}':
			return nil, "", fmt.Errorf("want , or } at %q", clip(s))
		}
	}
}

// quoted reads a double-quoted string with the escapes \\, \" and \n.
func quoted(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			i++
			if i == len(s) {
				return "", "", errors.New("unterminated string")
			}
			switch s[i] {
			case '\\', '"':
				b.WriteByte(s[i])
			case 'n':
				b.WriteByte('\n')
			default:
				return "", "", fmt.Errorf("invalid escape \\%c", s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("unterminated string")
}

// parseValue reads a sample value as Prometheus does: a decimal float,
// Inf or NaN with an optional sign, but no hexadecimal and no
// underscores.
func parseValue(tok string) (float64, error) {
	if tok == "" {
		return 0, errors.New("no value")
	}
	if strings.ContainsAny(tok, "xXpP_") {
		return 0, fmt.Errorf("invalid value %q", clip(tok))
	}
	v, err := strconv.ParseFloat(tok, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("value %q out of range", clip(tok))
	}
	if err != nil {
		return 0, fmt.Errorf("invalid value %q", clip(tok))
	}
	return v, nil
}

func validMetricName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i], i == 0, true) {
			return false
		}
	}
	return true
}

// isNameChar reports whether c may appear in a metric name (colons
// allowed) or a label name at that position.
func isNameChar(c byte, first, colon bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' ||
		colon && c == ':' || !first && c >= '0' && c <= '9'
}

// cutBlank removes the blanks (spaces, tabs) at the start of s and
// reports whether there was one.
func cutBlank(s string) (string, bool) {
	t := strings.TrimLeft(s, " \t")
	return t, len(t) < len(s)
}

// token splits s at the first blank.
func token(s string) (string, string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

func labelValue(labels []Label, name string) (string, bool) {
	for _, l := range labels {
		if l.Name == name {
			return l.Value, true
		}
	}
	return "", false
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
