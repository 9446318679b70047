package ves

import (
	"fmt"
	"unicode/utf8"
)

// TemplateError is a compile error in a body template. It carries the
// 1-based line and column (counted in characters) of the placeholder or
// byte at fault so the CLI can print one line that points into the file.
type TemplateError struct {
	Path   string // file name when the template came from a file, else empty
	Line   int
	Column int
	Msg    string
	// NotJSON says the template compiled but its rendered body is not
	// JSON: the caller can name what sends it as written anyway.
	NotJSON bool
}

// Error formats the error as path:line:column: message, the form editors
// and terminals turn into a jump to the spot.
func (e *TemplateError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
}

// posError is a parse error at a byte offset; it becomes a TemplateError
// once the offset is turned into a line and column.
type posError struct {
	off int
	msg string
}

func (e *posError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

func errAt(off int, format string, args ...any) *posError {
	return &posError{off: off, msg: fmt.Sprintf(format, args...)}
}

// templateError converts a byte offset in src into a TemplateError.
func templateError(src []byte, off int, msg string) *TemplateError {
	off = max(0, min(off, len(src)))
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return &TemplateError{Line: line, Column: utf8.RuneCount(src[lineStart:off]) + 1, Msg: msg}
}
