package profiles

import (
	"fmt"
	"strings"
)

// Error is a problem in a profile file at a known place. Its text is one
// line, file:line:column: message, so the command line can print it as is
// and exit 2.
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
}

// Error formats the problem as file:line:column: message (file: message
// when the position is unknown).
func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// FieldError is a Validate failure on one field, named by its YAML path
// (for example "load.stages[2].rps"), so Parse can point at its line.
type FieldError struct {
	Path string
	Msg  string
}

// Error formats the problem as path: message.
func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

func fieldErr(path, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// oneLine keeps messages from outside libraries on a single line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// suggest returns the candidate nearest to word when it is close enough
// to be a likely typo ("duraton" → "duration", "poolWait" → "pool_wait"),
// else "".
func suggest(word string, candidates []string) string {
	best, bestD := "", 1<<30
	norm := normKey(word)
	for _, c := range candidates {
		if normKey(c) == norm {
			return c
		}
		if d := editDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, min(3, len(word)/3))
	if bestD <= limit {
		return best
	}
	return ""
}

func normKey(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// editDistance is the edit distance between a and b, on bytes, in which
// swapping two neighbours counts as one edit (optimal string alignment):
// "rsp" is one typo of "rps", as "comapre" is of "compare".
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	older := make([]int, len(b)+1) // row i-2
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], older[j-2]+1)
			}
		}
		older, prev, cur = prev, cur, older
	}
	return prev[len(b)]
}
