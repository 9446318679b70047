package profiles

import (
	"fmt"

	"github.com/vesload/vesload/internal/inputfile"
)

// checkDepth refuses a document nested deeper than inputfile.YAMLDepth
// before the YAML library sees it: the library's cost grows with the
// square of the nesting (depth 20,000, 40 KB of "[", took 990 MB), and no
// profile nests more than a few levels. It reads the text as YAML's
// lexer would, as far as nesting goes: flow collections ("[", "{"), block
// entries chained on one line ("- - -", "? ? ?"), with quoted scalars,
// comments and block scalars (| and >) skipped, and refuses at the line
// and column where the limit is passed.
//
// Block nesting by indentation needs no check: each level costs a line
// one space longer than the last, so the profile's size bounds it.
//
// Where its reading of quotes might differ from the library's, a second
// count of every bracket, quoted or not, bounds the depth at ten times the
// limit: text the scanner took for a string cannot hide a deep document.
func checkDepth(data []byte, name string) error {
	limit := inputfile.YAMLDepth
	s := depthScanner{data: data, line: 1, block: -1, newLine: true, rawLimit: 10 * limit}
	for s.i < len(data) {
		if d, col := s.next(); d > limit {
			return &Error{File: name, Line: s.line, Column: col, Msg: fmt.Sprintf("nested more than %d levels deep: a profile nests a few", limit)}
		}
		if s.rawLine > 0 {
			return &Error{File: name, Line: s.rawLine, Column: s.rawCol, Msg: fmt.Sprintf("more than %d brackets open at once: a profile nests a few levels", 10*limit)}
		}
	}
	return nil
}

// depthScanner walks a YAML text one piece at a time, keeping the nesting
// at the current position.
type depthScanner struct {
	data      []byte
	i         int
	line      int
	lineStart int // offset of the current line
	flow      int // open flow collections
	raw       int // every "[" and "{" less every "]" and "}", quoted or not, never below 0
	rawLimit  int
	rawLine   int // where raw first passed rawLimit, 0 before
	rawCol    int
	entries   int  // block indicators chained on this line
	atNode    bool // a node may start here (a quote or a block scalar)
	block     int  // in a block scalar: the indentation its lines must pass; else -1
	indent    int  // the current line's indentation
	newLine   bool // at the start of a line, before its indentation
}

// next consumes one piece (a line start, a character, a quoted scalar, a
// comment) and returns the nesting it reached and its column.
func (s *depthScanner) next() (depth, col int) {
	if s.newLine {
		s.newLine = false
		s.startLine()
		return 0, 0
	}
	c := s.data[s.i]
	col = s.i - s.lineStart + 1
	switch {
	case c == '\n':
		s.i++
		s.line++
		s.lineStart = s.i
		s.newLine = true
		return 0, 0
	case c == '#' && (s.i == s.lineStart || isBlank(s.data[s.i-1])):
		s.skipToEOL()
	case (c == '"' || c == '\'') && s.atNode:
		s.skipQuoted(c)
		s.atNode = false
	case (c == '|' || c == '>') && s.atNode && s.flow == 0:
		s.block = s.indent
		s.skipToEOL()
	case c == '[' || c == '{':
		s.flow++
		s.countRaw(c)
		s.i++
		s.atNode = true
	case c == ']' || c == '}':
		if s.flow > 0 {
			s.flow--
		}
		s.countRaw(c)
		s.i++
		s.atNode = false
	case c == ',' && s.flow > 0:
		s.i++
		s.atNode = true
	case (c == '-' || c == '?') && s.atNode && s.flow == 0 && s.followedByBlank():
		s.entries++
		s.i++
	case c == ':' && (s.followedByBlank() || s.flow > 0 && s.i > 0 && isCloser(s.data[s.i-1])):
		s.i++
		s.atNode = true
	case isBlank(c):
		s.i++
	default:
		s.i++
		s.atNode = false
	}
	return s.flow + s.entries, col
}

// startLine reads a line's indentation and, inside a block scalar, skips
// the line when it belongs to the scalar.
func (s *depthScanner) startLine() {
	j := s.i
	for j < len(s.data) && s.data[j] == ' ' {
		j++
	}
	s.indent = j - s.i
	s.entries = 0
	if s.block >= 0 {
		blank := j == len(s.data) || s.data[j] == '\n' || s.data[j] == '\r' || s.data[j] == '\t'
		if blank || s.indent > s.block {
			s.skipToEOL()
			return
		}
		s.block = -1
	}
	s.i = j
	s.atNode = true
}

// skipToEOL moves to the line's newline.
func (s *depthScanner) skipToEOL() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.countRaw(s.data[s.i])
		s.i++
	}
}

// countRaw counts the bracket c at the current position, skipped or not.
func (s *depthScanner) countRaw(c byte) {
	switch c {
	case '[', '{':
		s.raw++
		if s.raw > s.rawLimit && s.rawLine == 0 {
			s.rawLine, s.rawCol = s.line, s.i-s.lineStart+1
		}
	case ']', '}':
		if s.raw > 0 {
			s.raw--
		}
	}
}

// skipQuoted moves past a quoted scalar opened by q. Outside flow
// collections a line indented no more than the one the quote began on
// ends it: YAML would not continue the scalar there, so neither does the
// scan, and a quote it misread cannot hide the rest of the file.
func (s *depthScanner) skipQuoted(q byte) {
	open := s.indent
	s.i++
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case q == '"' && c == '\\':
			s.i += 2
			continue
		case c == q && q == '\'' && s.i+1 < len(s.data) && s.data[s.i+1] == '\'':
			s.i += 2
			continue
		case c == q:
			s.i++
			return
		case c == '[', c == '{', c == ']', c == '}':
			s.countRaw(c)
		case c == '\n':
			s.i++
			s.line++
			s.lineStart = s.i
			j := s.i
			for j < len(s.data) && s.data[j] == ' ' {
				j++
			}
			if s.flow == 0 && j < len(s.data) && s.data[j] != '\n' && j-s.i <= open {
				s.newLine = true
				return
			}
			continue
		}
		s.i++
	}
}

func (s *depthScanner) followedByBlank() bool {
	return s.i+1 >= len(s.data) || isBlank(s.data[s.i+1]) || s.data[s.i+1] == '\n' || s.data[s.i+1] == '\r'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isCloser(c byte) bool { return c == '"' || c == '\'' || c == ']' || c == '}' }
