package testserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The collector turns a request body into a document with org.json
// (version 20220320, `new JSONObject(body)`), outside any try/catch: what
// that parser accepts goes on to schema validation, and what it throws on
// becomes Spring's 500 error page. org.json is lenient in its own ways,
// reproduced here:
//
//   - only the first object counts: anything after its closing brace
//     (garbage, a second object, another brace) is ignored;
//   - a trailing comma before '}' or ']' is allowed, and so is ';'
//     between the members of an object; an empty array element (",,") is
//     null;
//   - strings may be single-quoted; keys and values may be unquoted words,
//     which become true, false or null (in any letter case), a number when
//     Java reads them as one, else a string;
//   - it throws on a body that does not start with '{' (a top-level array),
//     an unterminated string or object, a bad escape, a raw line break in a
//     string, a missing value, and a duplicate key.
//
// The result is a tree of map[string]any, []any, string, json.Number,
// bool and nil, the instance form the schema validator takes.

// maxOrgDepth bounds nesting: deep enough for any event, and where the
// collector's own stack would give out (that too ends as a 500).
const maxOrgDepth = 1000

// errOrgSyntax marks a body org.json refuses.
var errOrgSyntax = errors.New("org.json syntax error")

// orgParser reads one body. Reading past the end yields 0, as
// JSONTokener.next does, and back() steps over that virtual character
// too, so Java's back-after-EOF cases need no special handling.
type orgParser struct {
	s     []byte
	i     int
	depth int
	names *keyNames // nil: every key is a new string
	sizes []int32   // the key counts of the objects in the order they open, to size their maps; may be short
	nobj  int       // objects opened so far
}

// parseOrgJSON parses body as the collector's `new JSONObject(body)`.
func parseOrgJSON(body []byte) (map[string]any, error) {
	return parseOrgJSONSized(body, nil, nil)
}

// parseOrgJSONSized is parseOrgJSON taking the quoted keys without
// escapes from names (nil: none), so that the keys every event repeats
// are not allocated again for each request, and making each object's map
// with room for the number of keys sizes gives it (objects numbered in
// the order they open; nil: none), so that no map grows while it is
// filled.
func parseOrgJSONSized(body []byte, names *keyNames, sizes []int32) (map[string]any, error) {
	p := &orgParser{s: body, names: names, sizes: sizes}
	return p.object()
}

// maxKeyNames bounds a keyNames: the first keys seen are the vocabulary
// of the events sent; later new ones are allocated as usual.
const maxKeyNames = 1024

// keyNames are the object keys a parser met before, kept as strings. One
// is used by one request at a time (it lives in a pooled checker).
type keyNames struct{ m map[string]string }

// name returns the string of raw, from the table when it holds it.
func (k *keyNames) name(raw []byte) string {
	if s, ok := k.m[string(raw)]; ok {
		return s
	}
	s := string(raw)
	if k.m == nil {
		k.m = make(map[string]string)
	}
	if len(k.m) < maxKeyNames {
		k.m[s] = s
	}
	return s
}

func (p *orgParser) fail(format string, args ...any) error {
	return fmt.Errorf("%w at byte %d: %s", errOrgSyntax, min(p.i, len(p.s)), fmt.Sprintf(format, args...))
}

func (p *orgParser) next() byte {
	i := p.i
	p.i++
	if i >= len(p.s) {
		return 0
	}
	return p.s[i]
}

func (p *orgParser) back() { p.i-- }

// nextClean skips whitespace (every byte up to ' ') but NUL, which ends
// the text.
func (p *orgParser) nextClean() byte {
	for {
		c := p.next()
		if c == 0 || c > ' ' {
			return c
		}
	}
}

func (p *orgParser) enter() error {
	p.depth++
	if p.depth > maxOrgDepth {
		return p.fail("nesting deeper than %d", maxOrgDepth)
	}
	return nil
}

func (p *orgParser) object() (map[string]any, error) {
	if p.nextClean() != '{' {
		return nil, p.fail("A JSONObject text must begin with '{'")
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	var size int32
	if p.nobj < len(p.sizes) {
		size = p.sizes[p.nobj]
	}
	p.nobj++
	m := make(map[string]any, size)
	for {
		switch p.nextClean() {
		case 0:
			return nil, p.fail("A JSONObject text must end with '}'")
		case '}':
			return m, nil
		}
		p.back()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if p.nextClean() != ':' {
			return nil, p.fail("Expected a ':' after a key")
		}
		if _, dup := m[key]; dup {
			return nil, p.fail("Duplicate key %q", key)
		}
		if m[key], err = p.value(); err != nil {
			return nil, err
		}
		switch p.nextClean() {
		case ';', ',':
			if p.nextClean() == '}' {
				return m, nil
			}
			p.back()
		case '}':
			return m, nil
		default:
			return nil, p.fail("Expected a ',' or '}'")
		}
	}
}

func (p *orgParser) array() ([]any, error) {
	p.next() // '['
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	a := []any{}
	switch p.nextClean() {
	case 0:
		return nil, p.fail("Expected a ',' or ']'")
	case ']':
		return a, nil
	}
	p.back()
	for {
		if p.nextClean() == ',' {
			p.back()
			a = append(a, nil)
		} else {
			p.back()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		switch p.nextClean() {
		case ',':
			switch p.nextClean() {
			case 0:
				return nil, p.fail("Expected a ',' or ']'")
			case ']':
				return a, nil
			}
			p.back()
		case ']':
			return a, nil
		default:
			return nil, p.fail("Expected a ',' or ']'")
		}
	}
}

// key reads an object key as `nextValue().toString()` does; a quoted
// key without escapes comes from p.names.
func (p *orgParser) key() (string, error) {
	if q := p.nextClean(); p.names != nil && (q == '"' || q == '\'') {
		start := p.i
	scan:
		for j := start; j < len(p.s); j++ {
			switch p.s[j] {
			case q:
				p.i = j + 1
				return p.names.name(p.s[start:j]), nil
			case 0, '\n', '\r', '\\':
				break scan // str's errors and escapes
			}
		}
	}
	p.back()
	k, err := p.value()
	if err != nil {
		return "", err
	}
	return orgKey(k), nil
}

// value is JSONTokener.nextValue.
func (p *orgParser) value() (any, error) {
	c := p.nextClean()
	switch c {
	case '"', '\'':
		return p.str(c)
	case '{':
		p.back()
		return p.object()
	case '[':
		p.back()
		return p.array()
	}
	start := p.i - 1
	for c >= ' ' && strings.IndexByte(",:]}/\\\"[{;=#", c) < 0 {
		c = p.next()
	}
	p.back()
	word := strings.TrimRight(string(p.s[start:min(p.i, len(p.s))]), " ")
	if word == "" {
		return nil, p.fail("Missing value")
	}
	return orgWord(word), nil
}

// str reads a string up to the closing quote.
func (p *orgParser) str(quote byte) (string, error) {
	start := p.i
	for { // fast path: no escapes
		c := p.next()
		switch c {
		case 0, '\n', '\r':
			return "", p.fail("Unterminated string")
		case quote:
			return string(p.s[start : p.i-1]), nil
		case '\\':
			p.i = start
			return p.escapedStr(quote)
		}
	}
}

func (p *orgParser) escapedStr(quote byte) (string, error) {
	var b []byte
	var pending []uint16 // \u units, joined into surrogate pairs at the end
	flush := func() {
		for _, r := range utf16.Decode(pending) {
			b = utf8.AppendRune(b, r)
		}
		pending = pending[:0]
	}
	for {
		c := p.next()
		if c != '\\' || !p.peekIs('u') {
			flush()
		}
		switch c {
		case 0, '\n', '\r':
			return "", p.fail("Unterminated string")
		case quote:
			return string(b), nil
		case '\\':
			e := p.next()
			switch e {
			case 'b':
				b = append(b, '\b')
			case 't':
				b = append(b, '\t')
			case 'n':
				b = append(b, '\n')
			case 'f':
				b = append(b, '\f')
			case 'r':
				b = append(b, '\r')
			case 'u':
				u, ok := p.hex4()
				if !ok {
					return "", p.fail("Illegal escape.")
				}
				pending = append(pending, u)
			case '"', '\'', '\\', '/':
				b = append(b, e)
			default:
				return "", p.fail("Illegal escape.")
			}
		default:
			b = append(b, c)
		}
	}
}

func (p *orgParser) peekIs(c byte) bool {
	return p.i < len(p.s) && p.s[p.i] == c
}

// hex4 reads the four characters after \u as Integer.parseInt(s, 16)
// does (a leading sign is allowed) and keeps the low 16 bits, as the
// (char) cast does.
func (p *orgParser) hex4() (uint16, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	s := p.s[p.i : p.i+4]
	p.i += 4
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg, s = s[0] == '-', s[1:]
	}
	var v int
	for _, c := range s {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return 0, false
		}
		v = v*16 + d
	}
	if neg {
		v = -v
	}
	return uint16(v), true
}

// orgWord is JSONObject.stringToValue for an unquoted word.
func orgWord(w string) any {
	switch strings.ToLower(w) {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if c := w[0]; (c >= '0' && c <= '9') || c == '-' {
		if n, ok := orgNumber(w); ok {
			return n
		}
	}
	return w
}

// orgNumber is JSONObject.stringToNumber: a decimal notation (with '.',
// 'e' or 'E', or "-0") as Java's BigDecimal or Double reads it, else an
// integer without leading zeros. The number is returned in JSON's form.
func orgNumber(w string) (json.Number, bool) {
	if strings.ContainsAny(w, ".eE") || w == "-0" {
		return decimalNumber(w)
	}
	digits := strings.TrimPrefix(w, "-")
	if digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	return json.Number(w), true
}

// decimalNumber reads [-]digits[.digits][(e|E)[+|-]digits] with digits
// on at least one side of the point (BigDecimal's grammar), or the same
// with Double's f/F/d/D suffix, and returns the number as org.json writes
// it back: BigDecimal's or Double's toString, with a fraction's trailing
// zeros (and then the point) shaved off when there is no exponent.
func decimalNumber(w string) (json.Number, bool) {
	suffixed := false
	if n := len(w); n > 1 && strings.IndexByte("fFdD", w[n-1]) >= 0 {
		w, suffixed = w[:n-1], true
	}
	sign := ""
	if strings.HasPrefix(w, "-") {
		sign, w = "-", w[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(w), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	if (ip == "" && fp == "") || !allDigits(ip) || !allDigits(fp) {
		return "", false
	}
	e := 0
	if hasExp {
		digits := strings.TrimLeft(exp, "+-")
		if digits == "" || !allDigits(digits) || len(exp)-len(digits) > 1 {
			return "", false
		}
		if len(digits) > 9 { // past BigDecimal's int exponent: Double reads it
			suffixed = true
		} else {
			e, _ = strconv.Atoi(digits)
			if exp[0] == '-' {
				e = -e
			}
		}
	}
	coeff := strings.TrimLeft(ip+fp, "0")
	if coeff == "" && sign == "-" {
		return "-0", true // BigDecimal has no -0: org.json keeps it as the double -0.0
	}
	if suffixed {
		if hasExp {
			mant += "e" + exp
		}
		return javaDouble(sign + mant)
	}
	if coeff == "" {
		coeff = "0"
	}
	return json.Number(shaved(sign + bigDecimalString(coeff, len(fp)-e))), true
}

// bigDecimalString is BigDecimal.toString of coeff (digits, no leading
// zero) × 10^-scale: plain when the scale is not negative and the
// exponent would be -6 or more, else scientific.
func bigDecimalString(coeff string, scale int) string {
	adjusted := -scale + len(coeff) - 1
	if scale >= 0 && adjusted >= -6 {
		switch {
		case scale == 0:
			return coeff
		case len(coeff) > scale:
			return coeff[:len(coeff)-scale] + "." + coeff[len(coeff)-scale:]
		default:
			return "0." + strings.Repeat("0", scale-len(coeff)) + coeff
		}
	}
	out := coeff[:1]
	if len(coeff) > 1 {
		out += "." + coeff[1:]
	}
	if adjusted > 0 {
		return out + "E+" + strconv.Itoa(adjusted)
	}
	return out + "E" + strconv.Itoa(adjusted)
}

// javaDouble is Double.valueOf then Double.toString: plain between 1e-3
// and 1e7, scientific outside; infinite values are no number to org.json.
func javaDouble(w string) (json.Number, bool) {
	d, err := strconv.ParseFloat(w, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsInf(d, 0) {
		return "", false
	}
	if a := math.Abs(d); a == 0 || a >= 1e-3 && a < 1e7 {
		return json.Number(shaved(strconv.FormatFloat(d, 'f', -1, 64))), true
	}
	return json.Number(strconv.FormatFloat(d, 'E', -1, 64)), true
}

// shaved is JSONObject.numberToString's last step: a plain decimal loses
// its fraction's trailing zeros, then a trailing point.
func shaved(n string) string {
	if strings.IndexByte(n, '.') > 0 && !strings.ContainsAny(n, "eE") {
		n = strings.TrimRight(strings.TrimRight(n, "0"), ".")
	}
	return n
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// orgKey is what `nextValue().toString()` makes of a key.
func orgKey(v any) string {
	switch k := v.(type) {
	case string:
		return k
	case nil:
		return "null"
	case bool:
		if k {
			return "true"
		}
		return "false"
	case json.Number:
		return string(k)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
