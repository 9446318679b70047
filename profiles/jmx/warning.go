package jmx

import (
	"fmt"
	"strconv"
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
	// Group numbers the thread group the element is in (from 1), 0 when
	// it is in none.
	Group int
	// More are the lines of the same element, with the same name and
	// reason, in other thread groups (a plan of identical thread groups
	// repeats each of its elements); Groups counts the thread groups the
	// warning applies to when it is more than one.
	More   []int
	Groups int
}

// String is the warning as one line: "line 110: BackendListener
// "Backend Listener": backend listener not translated: …", or, for one
// rolled up over thread groups, "lines 88, 238 and 4 more (6 thread
// groups): AuthManager …".
func (w Warning) String() string {
	if len(w.More) == 0 {
		return oneLine(fmt.Sprintf("line %d: %s %q: %s", w.Line, w.Element, w.Name, w.Reason))
	}
	lines := []string{strconv.Itoa(w.Line)}
	for _, l := range w.More[:min(len(w.More), 2)] {
		lines = append(lines, strconv.Itoa(l))
	}
	where := "lines " + strings.Join(lines, ", ")
	if rest := len(w.More) - 2; rest > 0 {
		where += fmt.Sprintf(" and %d more", rest)
	}
	if w.Groups > 1 {
		where += fmt.Sprintf(" (%d thread groups)", w.Groups)
	}
	return oneLine(fmt.Sprintf("%s: %s %q: %s", where, w.Element, w.Name, w.Reason))
}

// rollUp gives each distinct warning (element type, name and reason) once,
// at its first line, with the other lines it applies to and the number of
// thread groups: a plan of six identical thread groups gets each of its
// warnings once, not six times. The order is that of first appearance.
func rollUp(warns []Warning) []Warning {
	type key struct{ element, name, reason string }
	at := map[key]int{}
	groups := map[key]map[int]bool{}
	var out []Warning
	for _, w := range warns {
		k := key{w.Element, w.Name, w.Reason}
		if groups[k] == nil {
			groups[k] = map[int]bool{}
		}
		groups[k][w.Group] = true
		i, seen := at[k]
		if !seen {
			at[k] = len(out)
			out = append(out, w)
			continue
		}
		out[i].More = append(out[i].More, w.Line)
	}
	for i := range out {
		k := key{out[i].Element, out[i].Name, out[i].Reason}
		if n := len(groups[k]); n > 1 {
			out[i].Groups = n
		}
	}
	return out
}

// oneLine joins the lines of s with spaces, so a name or value from the
// plan cannot break a message in two.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}
