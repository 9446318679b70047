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
