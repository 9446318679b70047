package ves

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseEnv is what placeholders may refer to when a template is compiled.
type parseEnv struct {
	runID string
	vars  map[string]string
	data  *Data // columns bound per request; they win over vars
}

// parser turns template source into segments. Placeholders are resolved
// here, once: anything fixed for the run (variables, RunID, threadNum)
// becomes a literal, the rest a typed segment.
type parser struct {
	src    []byte
	env    parseEnv
	segs   []segment
	salted uint64 // Random and UUID placeholders seen, to give each its own salt
}

// parse compiles src. Errors are *posError values carrying the offset of
// the placeholder at fault.
func parse(src []byte, env parseEnv) ([]segment, error) {
	p := parser{src: src, env: env}
	for i := 0; i < len(src); {
		j := nextOpen(src, i)
		if j < 0 {
			p.verbatim(i, len(src))
			break
		}
		p.verbatim(i, j)
		var err error
		if src[j] == '{' {
			i, err = p.native(j)
		} else {
			i, err = p.jmeter(j)
		}
		if err != nil {
			return nil, err
		}
	}
	return p.segs, nil
}

// nextOpen finds the next "{{" or "${" at or after from, or -1.
func nextOpen(src []byte, from int) int {
	for i := from; i+1 < len(src); i++ {
		if src[i+1] == '{' && (src[i] == '{' || src[i] == '$') {
			return i
		}
	}
	return -1
}

// verbatim adds src[from:to] as a literal. The bytes are copied so that a
// caller reusing its buffer cannot change a compiled template.
func (p *parser) verbatim(from, to int) {
	if from < to {
		lit := bytes.Clone(p.src[from:to])
		p.segs = append(p.segs, segment{kind: segStatic, lit: lit, pos: from, verbatim: true})
	}
}

// literal adds text resolved from a placeholder at pos.
func (p *parser) literal(pos int, text string) {
	p.segs = append(p.segs, segment{kind: segStatic, lit: []byte(text), pos: pos})
}

func (p *parser) field(pos int, kind segKind) {
	p.segs = append(p.segs, segment{kind: kind, pos: pos})
}

// random adds a Random placeholder drawing from [lo, hi].
func (p *parser) random(pos int, lo, hi int64) {
	span := uint64(hi) - uint64(lo) + 1 // wraps to 0 for the whole int64 range
	p.segs = append(p.segs, segment{kind: segRandom, lo: lo, span: span, salt: p.salt(), pos: pos})
}

// uuid adds a UUID placeholder; its own salt makes two UUIDs in one body
// differ.
func (p *parser) uuid(pos int) {
	p.segs = append(p.segs, segment{kind: segUUID, salt: p.salt(), pos: pos})
}

func (p *parser) salt() uint64 {
	p.salted++
	return mix64(p.salted * golden)
}

// native parses the {{...}} placeholder starting at j and returns the
// offset just past it.
func (p *parser) native(j int) (int, error) {
	i := skipSpace(p.src, j+2)
	if i < len(p.src) && (p.src[i] == '"' || p.src[i] == '`') {
		return p.quoted(j, i)
	}
	k := bytes.Index(p.src[i:], []byte("}}"))
	if k < 0 {
		return 0, errAt(j, "unterminated {{: no closing }}")
	}
	body := string(p.src[i : i+k])
	fields := strings.Fields(body)
	if len(fields) == 0 {
		return 0, errAt(j, "empty placeholder {{}}")
	}
	name, args := fields[0], fields[1:]
	if !strings.HasPrefix(name, ".") {
		return 0, errAt(j, "placeholder {{%s}} must name a field with a leading dot, e.g. {{.Seq}}", shorten(body))
	}
	if err := p.nativeField(j, name[1:], args); err != nil {
		return 0, err
	}
	return i + k + 2, nil
}

// simpleField maps the native placeholders that take no arguments to
// their segment kind.
func simpleField(name string) (segKind, bool) {
	switch name {
	case "Seq":
		return segSeq, true
	case "Counter":
		return segCounter, true
	case "EpochMicros":
		return segEpochMicros, true
	case "EpochMillis":
		return segEpochMillis, true
	case "EpochSeconds":
		return segEpochSeconds, true
	case "EventTime":
		return segEventTime, true
	}
	return segStatic, false
}

// nativeNames lists every native placeholder for error messages.
const nativeNames = "Seq, Counter, EventID, UUID, EpochMicros, EpochMillis, EpochSeconds, EventTime, RunID, Random MIN MAX"

func (p *parser) nativeField(j int, name string, args []string) error {
	if name == "Random" {
		if len(args) != 2 {
			return errAt(j, "{{.Random}} takes two integers, MIN and MAX: {{.Random 1 100}}")
		}
		lo, hi, err := parseRange(args[0], args[1])
		if err != nil {
			return errAt(j, "{{.Random %s %s}}: %s", args[0], args[1], err.Error())
		}
		p.random(j, lo, hi)
		return nil
	}
	if len(args) != 0 {
		return errAt(j, "{{.%s}} takes no arguments", shorten(name))
	}
	if kind, ok := simpleField(name); ok {
		p.field(j, kind)
		return nil
	}
	switch name {
	case "UUID":
		p.uuid(j)
	case "RunID":
		p.literal(j, p.env.runID)
	case "EventID":
		p.literal(j, p.env.runID+"-")
		p.field(j, segSeq)
	default:
		return errAt(j, "unknown placeholder {{.%s}} (known: %s)", shorten(name), nativeNames)
	}
	return nil
}

// quoted parses {{"text"}} or {{`text`}}, the way to write a literal "{{"
// or "${" in a body; q is the offset of the opening quote.
func (p *parser) quoted(j, q int) (int, error) {
	var end int
	if p.src[q] == '`' {
		k := bytes.IndexByte(p.src[q+1:], '`')
		if k < 0 {
			return 0, errAt(j, "unterminated raw string in {{`...`}}")
		}
		end = q + 1 + k + 1
	} else {
		end = -1
		for m := q + 1; m < len(p.src); m++ {
			if p.src[m] == '\\' {
				m++
				continue
			}
			if p.src[m] == '"' {
				end = m + 1
				break
			}
		}
		if end < 0 {
			return 0, errAt(j, `unterminated string in {{"..."}}`)
		}
	}
	text, err := strconv.Unquote(string(p.src[q:end]))
	if err != nil {
		return 0, errAt(j, "bad string literal %s in {{...}}: %v", shorten(string(p.src[q:end])), err)
	}
	i := skipSpace(p.src, end)
	if !bytes.HasPrefix(p.src[i:], []byte("}}")) {
		return 0, errAt(j, "expected }} after the string literal")
	}
	p.literal(j, text)
	return i + 2, nil
}

// jmeter parses the ${...} reference starting at j: a JMeter function
// call or a variable.
func (p *parser) jmeter(j int) (int, error) {
	k := bytes.IndexByte(p.src[j+2:], '}')
	if k < 0 {
		return 0, errAt(j, "unterminated ${: no closing }")
	}
	body := string(p.src[j+2 : j+2+k])
	end := j + 2 + k + 1
	switch {
	case body == "":
		return 0, errAt(j, "empty reference ${}")
	case strings.Contains(body, "${"):
		return 0, errAt(j, "nested references such as ${%s} are not supported", shorten(body))
	case strings.HasPrefix(body, "__"):
		return end, p.jmeterFunc(j, body)
	}
	if col := p.env.data.column(body); col >= 0 {
		p.segs = append(p.segs, segment{kind: segRow, lo: int64(col), pos: j})
		return end, nil
	}
	value, ok := p.env.vars[body]
	if !ok {
		return 0, errAt(j, "undefined variable ${%s}: bind it with a template variable", shorten(body))
	}
	p.literal(j, value)
	return end, nil
}

// jmeterNames lists the supported JMeter functions for error messages.
const jmeterNames = "__time, __UUID, __counter, __Random, __threadNum"

// jmeterFunc resolves a JMeter function call such as __Random(1,10).
func (p *parser) jmeterFunc(j int, call string) error {
	name, args, err := splitCall(call)
	if err != nil {
		return errAt(j, "${%s}: %s", shorten(call), err.Error())
	}
	switch name {
	case "__time":
		return p.jmeterTime(j, args)
	case "__UUID":
		if len(args) != 0 {
			return errAt(j, "${__UUID} takes no arguments")
		}
		p.uuid(j)
	case "__counter":
		if len(args) > 2 {
			return errAt(j, "${__counter(PER_USER,NAME)} takes at most two arguments")
		}
		if len(args) > 0 {
			switch strings.ToUpper(strings.TrimSpace(args[0])) {
			case "", "TRUE", "FALSE":
			default:
				return errAt(j, "${__counter}: first argument must be TRUE, FALSE or empty, not %q", shorten(args[0]))
			}
		}
		p.field(j, segCounter)
	case "__Random":
		if len(args) != 2 && len(args) != 3 {
			return errAt(j, "${__Random(MIN,MAX)} takes two integers and an optional variable name")
		}
		lo, hi, err := parseRange(args[0], args[1])
		if err != nil {
			return errAt(j, "${%s}: %s", shorten(call), err.Error())
		}
		p.random(j, lo, hi)
	case "__threadNum":
		if len(args) != 0 {
			return errAt(j, "${__threadNum} takes no arguments")
		}
		// vesload has no threads: one open-model stream stands for thread 1.
		p.literal(j, "1")
	default:
		return errAt(j, "unknown JMeter function %s (supported: %s)", shorten(name), jmeterNames)
	}
	return nil
}

// jmeterTime resolves __time(FORMAT,NAME). Only the numeric forms are
// supported: an empty format gives epoch milliseconds (JMeter's default)
// and "/1000" epoch seconds. NAME would store the value in a JMeter
// variable; it is accepted and ignored.
func (p *parser) jmeterTime(j int, args []string) error {
	if len(args) > 2 {
		return errAt(j, "${__time(FORMAT,NAME)} takes at most two arguments")
	}
	format := ""
	if len(args) > 0 {
		format = strings.TrimSpace(args[0])
	}
	switch format {
	case "":
		p.field(j, segEpochMillis)
	case "/1000":
		p.field(j, segEpochSeconds)
	default:
		return errAt(j, "${__time}: unsupported format %q (use an empty format for epoch milliseconds or /1000 for seconds)", shorten(format))
	}
	return nil
}

// splitCall splits "__name(a,b)" into its name and arguments; "__name"
// and "__name()" both have no arguments.
func splitCall(call string) (string, []string, error) {
	open := strings.IndexByte(call, '(')
	if open < 0 {
		return call, nil, nil
	}
	if !strings.HasSuffix(call, ")") {
		return "", nil, errMsg("missing ) after the arguments")
	}
	inner := call[open+1 : len(call)-1]
	if inner == "" {
		return call[:open], nil, nil
	}
	return call[:open], strings.Split(inner, ","), nil
}

// parseRange parses the inclusive bounds of a Random placeholder.
func parseRange(minText, maxText string) (int64, int64, error) {
	lo, err := strconv.ParseInt(strings.TrimSpace(minText), 10, 64)
	if err != nil {
		return 0, 0, errMsg("MIN " + strconv.Quote(shorten(minText)) + " is not an integer")
	}
	hi, err := strconv.ParseInt(strings.TrimSpace(maxText), 10, 64)
	if err != nil {
		return 0, 0, errMsg("MAX " + strconv.Quote(shorten(maxText)) + " is not an integer")
	}
	if lo > hi {
		return 0, 0, errMsg("MIN " + strconv.FormatInt(lo, 10) + " is greater than MAX " + strconv.FormatInt(hi, 10))
	}
	return lo, hi, nil
}

// errMsg is an error without position; the caller adds it.
type errMsg string

func (e errMsg) Error() string { return string(e) }

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// shorten keeps error messages one line long whatever the input.
func shorten(s string) string {
	const limit = 40
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}
