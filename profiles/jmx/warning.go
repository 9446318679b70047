package jmx

import (
	"fmt"
	"strings"
)

// Warning is one part of a plan that was not translated, or not
// faithfully: the import never drops anything silently, and the command
// line prints these on stderr.
type Warning struct {
	// Line and Column locate the element in the plan.
	Line, Column int
	// Element is the JMeter element type, e.g. BackendListener.
	Element string
	// Name is the element's name in the plan (its testname).
	Name string
	// Reason says what was not translated and why, or what to do.
	Reason string
}

// String is the warning as one line: "line 110: BackendListener
// "Backend Listener": backend listener not translated: …".
func (w Warning) String() string {
	return oneLine(fmt.Sprintf("line %d: %s %q: %s", w.Line, w.Element, w.Name, w.Reason))
}

// oneLine joins the lines of s with spaces, so a name or value from the
// plan cannot break a message in two.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}
