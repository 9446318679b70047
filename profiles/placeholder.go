package profiles

import "strings"

// NextPlaceholder finds the first ${…} expression of s: its start and its
// end, just past the closing "}". It is the one scanner of placeholders
// (variables, template functions, JMeter's functions on import): inside
// an expression it follows nested parentheses and backslash escapes, so
// that ${__Random(1,9)} and ${__P(a\}b)} are one expression each. A "${"
// that never closes is text, and the search goes on after it.
func NextPlaceholder(s string) (start, end int, ok bool) {
	for off := 0; ; {
		i := strings.Index(s[off:], "${")
		if i < 0 {
			return 0, 0, false
		}
		start = off + i
		if n := placeholderLen(s[start:]); n > 0 {
			return start, start + n, true
		}
		off = start + 2
	}
}

// placeholderLen is the length of the ${…} expression at the start of s,
// or -1 when it is not closed.
func placeholderLen(s string) int {
	depth := 0
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case '}':
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// ReplacePlaceholders returns s with every ${…} expression (as
// NextPlaceholder finds them) replaced by what f returns for it; f gets
// the whole expression, "${" and "}" included.
func ReplacePlaceholders(s string, f func(expr string) string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i, j, ok := NextPlaceholder(s)
		if !ok {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(f(s[i:j]))
		s = s[j:]
	}
	b.WriteString(s)
	return b.String()
}

// placeholderName is what a ${…} expression holds between "${" and "}".
func placeholderName(expr string) string { return expr[2 : len(expr)-1] }

// IsPlaceholder reports whether s is one ${…} expression and nothing else.
func IsPlaceholder(s string) bool {
	i, j, ok := NextPlaceholder(s)
	return ok && i == 0 && j == len(s)
}
