package jmx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/testserver"
)

// checkJSON says what is wrong with a body that looks like JSON (starts
// with { or [), or "" when it is valid or not JSON at all. It judges the
// body as vesload will send it: rendered by the body template engine, so
// that "startEpochMicrosec": ${__time()}000 is the valid number it becomes
// and not the text it is written as (variables render as 0). A body the
// engine cannot compile (a function it does not know, left as written)
// is judged with each ${…} replaced by 0. The problem names the position
// in the body and in the plan (the body starts at plan line startLine),
// and, for an unbalanced body, how many closing braces or brackets are
// missing.
func checkJSON(body string, startLine int) string {
	trimmed := strings.TrimSpace(body)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return ""
	}
	if problem, judged := renderedProblem(body, startLine); judged {
		return problem
	}
	sub, orig := substitute(body)
	var v any
	err := json.Unmarshal([]byte(sub), &v)
	if err == nil {
		return ""
	}
	off := len(sub)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if off > 0 && off <= len(sub) && !strings.HasPrefix(err.Error(), "unexpected end") {
		off-- // the offset is just past the offending byte
	}
	off = min(max(off, 0), len(orig)-1)
	line, col := lineCol(body, orig[off])
	msg := fmt.Sprintf("%s at body line %d, column %d (plan line %d)", err.Error(), line, col, startLine+line-1)
	if hint := unbalanced(sub); hint != "" {
		msg += ": " + hint
	}
	return msg
}

// collectorAnswer says what the VES collector answers to a body that is
// not JSON, judged as it will be sent (rendered as checkJSON renders it):
// its parser, org.json, throws on some (500) and reads others leniently
// (a trailing comma, single quotes, text after the object), which its
// schema then judges.
func collectorAnswer(body string) string {
	sample := []byte(nil)
	t, err := ves.CompileTemplate([]byte(body), ves.TemplateOptions{RunID: "import", Vars: zeroVars(body), AllowInvalidJSON: true})
	if err == nil {
		sample = t.AppendBody(nil, 0, time.Time{})
	} else {
		sub, _ := substitute(body)
		sample = []byte(sub)
	}
	if testserver.CollectorParse(sample) != nil {
		return "a collector answers it with 500: its JSON parser (org.json) throws on it"
	}
	return "a collector's JSON parser (org.json) reads it leniently: the collector answers as its schema judges what was read"
}

// renderedProblem compiles body with the engine's template compiler,
// which renders a sample and checks that it is JSON; judged is false when
// the body does not compile for another reason.
func renderedProblem(body string, startLine int) (problem string, judged bool) {
	_, err := ves.CompileTemplate([]byte(body), ves.TemplateOptions{RunID: "import", Vars: zeroVars(body)})
	if err == nil {
		return "", true
	}
	var te *ves.TemplateError
	const prefix = "rendered body is not valid JSON: "
	if !errors.As(err, &te) || !strings.HasPrefix(te.Msg, prefix) {
		return "", false
	}
	msg := fmt.Sprintf("%s at body line %d, column %d (plan line %d)", strings.TrimPrefix(te.Msg, prefix), te.Line, te.Column, startLine+te.Line-1)
	sub, _ := substitute(body)
	if hint := unbalanced(sub); hint != "" {
		msg += ": " + hint
	}
	return msg, true
}

// zeroVars binds every ${NAME} variable the body uses to 0, which is valid
// JSON as a number and inside a string alike.
func zeroVars(body string) map[string]string {
	vars := map[string]string{}
	for _, name := range profiles.VarsIn(body) {
		vars[name] = "0"
	}
	return vars
}

// substitute replaces every ${…} expression with 0 and returns, for each
// byte of the result (and its end), the offset it came from in s.
func substitute(s string) (string, []int) {
	var b strings.Builder
	orig := make([]int, 0, len(s)+1)
	next, end, ok := profiles.NextPlaceholder(s)
	for i := 0; i < len(s); {
		if ok && i == next {
			b.WriteByte('0')
			orig = append(orig, i)
			i = end
			if n, e, found := profiles.NextPlaceholder(s[i:]); found {
				next, end = i+n, i+e
			} else {
				ok = false
			}
			continue
		}
		b.WriteByte(s[i])
		orig = append(orig, i)
		i++
	}
	orig = append(orig, len(s))
	return b.String(), orig
}

// lineCol converts a byte offset of s to a 1-based line and column.
func lineCol(s string, off int) (int, int) {
	off = min(off, len(s))
	before := s[:off]
	line := strings.Count(before, "\n") + 1
	col := off - strings.LastIndexByte(before, '\n')
	return line, col
}

// unbalanced counts the braces and brackets left open outside strings.
func unbalanced(s string) string {
	var stack []byte
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			stack = append(stack, c)
		case (c == '}' || c == ']') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	braces, brackets := 0, 0
	for _, c := range stack {
		if c == '{' {
			braces++
		} else {
			brackets++
		}
	}
	var parts []string
	if braces > 0 {
		parts = append(parts, plural(braces, "closing brace"))
	}
	if brackets > 0 {
		parts = append(parts, plural(brackets, "closing bracket"))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + " missing"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
