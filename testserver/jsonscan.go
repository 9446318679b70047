package testserver

import (
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// maxNesting is the deepest nesting of arrays and objects the scanner
// accepts; it matches encoding/json so that both agree on what is valid.
const maxNesting = 10000

// maxSizes is how many objects' key counts a scan records: the rest are
// left out, so that a body of many small objects does not leave a long
// table behind in a pooled checker.
const maxSizes = 4096

// maxOrgKeys is how many keys of one object the scanner compares for
// duplicates; an object with more makes the scan unsure (see orgUnsure).
const maxOrgKeys = 64

// scanner is a single-pass JSON syntax checker that lets the validator
// look at the few values it cares about (keys, header fields) while it
// skips everything else. It never allocates once its stacks have grown:
// strings and numbers are returned as slices of the input. Any syntax
// error sets bad, after which every method returns at once.
//
// It also notes whether org.json (orgjson.go) might read the text apart
// from what it is as JSON: a duplicate key (org.json throws), a key with
// escapes (compared only after decoding), nesting deeper than org.json
// takes, or an object with more keys than it compares. A JSON text
// without any of them is one org.json parses, to the same document.
type scanner struct {
	buf       []byte
	pos       int
	depth     int
	bad       bool
	orgUnsure bool
	keys      []keySpan // the keys of the open objects, innermost last
	levels    []level   // the open objects and arrays, innermost last
	sizes     []int32   // the first maxSizes objects' key counts, in the order they open
}

// level is an open object (where its keys start in keys, and its index
// in sizes or -1) or array (both -1).
type level struct{ keys, obj int32 }

// keySpan is where a key's raw text lies in the input.
type keySpan struct{ start, end int32 }

func (s *scanner) reset(buf []byte) {
	s.buf, s.pos, s.depth, s.bad = buf, 0, 0, false
	s.orgUnsure = len(buf) > math.MaxInt32 // beyond what a keySpan holds
	s.keys, s.levels, s.sizes = s.keys[:0], s.levels[:0], s.sizes[:0]
}

// fail marks the input as invalid JSON and returns false for chaining.
func (s *scanner) fail() bool {
	s.bad = true
	return false
}

// ws skips JSON whitespace.
func (s *scanner) ws() {
	for s.pos < len(s.buf) {
		switch s.buf[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-whitespace byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos >= len(s.buf) {
		return 0
	}
	return s.buf[s.pos]
}

// end checks that nothing but whitespace follows the top-level value.
func (s *scanner) end() bool {
	if s.bad {
		return false
	}
	s.ws()
	if s.pos != len(s.buf) {
		return s.fail()
	}
	return true
}

// open consumes the opening bracket c ('{' or '[') and enters a level.
func (s *scanner) open(c byte) bool {
	if s.bad || s.peek() != c {
		return s.fail()
	}
	s.pos++
	s.depth++
	if s.depth > maxNesting {
		return s.fail()
	}
	if s.depth > maxOrgDepth {
		s.orgUnsure = true
	}
	l := level{-1, -1}
	if c == '{' {
		l = level{int32(len(s.keys)), -1}
		if len(s.sizes) < maxSizes {
			l.obj = int32(len(s.sizes))
			s.sizes = append(s.sizes, 0)
		}
	}
	s.levels = append(s.levels, l)
	return true
}

// close leaves the innermost level, forgetting an object's keys.
func (s *scanner) close() {
	s.depth--
	top := len(s.levels) - 1
	if top < 0 {
		return
	}
	if l := s.levels[top]; l.keys >= 0 {
		if l.obj >= 0 {
			s.sizes[l.obj] = int32(len(s.keys)) - l.keys
		}
		s.keys = s.keys[:l.keys]
	}
	s.levels = s.levels[:top]
}

// noteKey remembers a key of the innermost object, or marks the scan
// unsure when it repeats one, has escapes or is one too many to compare.
func (s *scanner) noteKey(start, end int, escaped bool) {
	top := len(s.levels) - 1
	if s.orgUnsure || top < 0 || s.levels[top].keys < 0 {
		return
	}
	own := s.keys[s.levels[top].keys:]
	if escaped || len(own) >= maxOrgKeys {
		s.orgUnsure = true
		return
	}
	k := s.buf[start:end]
	for _, o := range own {
		if int(o.end-o.start) == len(k) && string(s.buf[o.start:o.end]) == string(k) {
			s.orgUnsure = true
			return
		}
	}
	s.keys = append(s.keys, keySpan{int32(start), int32(end)})
}

// next reports whether another element follows in the object or array
// closed by c; first says whether this is the first call for the level.
// It consumes the separating comma, or the closing bracket when it
// returns false.
func (s *scanner) next(c byte, first bool) bool {
	if s.bad {
		return false
	}
	switch s.peek() {
	case c:
		s.pos++
		s.close()
		return false
	case ',':
		if first {
			return s.fail()
		}
		s.pos++
		s.ws()
		return true
	case 0:
		return s.fail()
	default:
		if !first {
			return s.fail()
		}
		return true
	}
}

// key reads an object key and the colon after it. It returns the raw
// (still escaped) key and whether it contains escapes.
func (s *scanner) key() (raw []byte, escaped bool) {
	if s.peek() != '"' {
		s.fail()
		return nil, false
	}
	start := s.pos + 1
	raw, escaped = s.str()
	if s.bad || s.peek() != ':' {
		s.fail()
		return nil, false
	}
	s.noteKey(start, start+len(raw), escaped)
	s.pos++
	return raw, escaped
}

// str reads a string starting at the opening quote and returns its raw
// contents without the quotes.
func (s *scanner) str() (raw []byte, escaped bool) {
	if s.bad || s.pos >= len(s.buf) || s.buf[s.pos] != '"' {
		s.fail()
		return nil, false
	}
	start := s.pos + 1
	for i := start; i < len(s.buf); i++ {
		switch c := s.buf[i]; {
		case c == '"':
			s.pos = i + 1
			return s.buf[start:i], escaped
		case c == '\\':
			escaped = true
			n := s.escapeLen(i)
			if n == 0 {
				s.fail()
				return nil, false
			}
			i += n - 1
		case c < 0x20:
			s.fail()
			return nil, false
		}
	}
	s.fail()
	return nil, false
}

// escapeLen returns the length of the escape sequence at i, 0 if invalid.
func (s *scanner) escapeLen(i int) int {
	if i+1 >= len(s.buf) {
		return 0
	}
	switch s.buf[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+5 >= len(s.buf) {
			return 0
		}
		for _, h := range s.buf[i+2 : i+6] {
			if hexVal(h) < 0 {
				return 0
			}
		}
		return 6
	}
	return 0
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// num reads a number and reports whether it is an integer literal (no
// fraction, no exponent), which is what JSON Schema draft-04 validators
// such as the collector's treat as "integer".
func (s *scanner) num() (raw []byte, integer bool) {
	if s.bad {
		return nil, false
	}
	b, i := s.buf, s.pos
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		s.fail()
		return nil, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			s.fail()
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			s.fail()
			return nil, false
		}
		i = j
	}
	raw = b[s.pos:i]
	s.pos = i
	return raw, integer
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// literal consumes the exact word w (true, false, null).
func (s *scanner) literal(w string) bool {
	if s.bad || len(s.buf)-s.pos < len(w) || string(s.buf[s.pos:s.pos+len(w)]) != w {
		return s.fail()
	}
	s.pos += len(w)
	return true
}

// skip validates and consumes any value.
func (s *scanner) skip() bool {
	switch s.peek() {
	case '{':
		s.open('{')
		for first := true; s.next('}', first); first = false {
			s.key()
			s.skip()
		}
	case '[':
		s.open('[')
		for first := true; s.next(']', first); first = false {
			s.skip()
		}
	case '"':
		s.str()
	case 't':
		s.literal("true")
	case 'f':
		s.literal("false")
	case 'n':
		s.literal("null")
	default:
		s.num()
	}
	return !s.bad
}

// unescape decodes the raw contents of a JSON string into dst (reusing
// its capacity) the way encoding/json does, including U+FFFD for lone
// surrogates. raw must have passed str.
func unescape(dst, raw []byte) []byte {
	dst = dst[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if r2 := utf16.DecodeRune(r, hex4(raw[i+3:])); r2 != utf8.RuneError {
						r = r2
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[i])
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexVal(c))
	}
	return r
}
