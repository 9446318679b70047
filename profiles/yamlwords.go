package profiles

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml/token"
)

// alreadyDefined is the YAML library's message for a key given twice.
var alreadyDefined = regexp.MustCompile(`^mapping key "(.*)" already defined at \[(\d+):(\d+)\]$`)

// inUserWords turns a message of the YAML library about the text of data
// into words about what the user wrote ("value is not allowed in this
// context" is the parser's view of a mis-indented key), and moves the
// position to the line at fault when that is the next one. Messages it
// does not know are kept.
func inUserWords(data []byte, pos *token.Position, msg string) (*token.Position, string) {
	if pos == nil || pos.Line < 1 {
		return pos, msg
	}
	lines := bytes.Split(data, []byte("\n"))
	if pos.Line > len(lines) {
		return pos, msg
	}
	line := string(lines[pos.Line-1])
	switch {
	case msg == "mapping value is not allowed in this context" || msg == "value is not allowed in this context":
		return misplacedValue(lines, pos, line)
	case msg == "non-map value is specified":
		return pos, "want key: value here, as on the lines above (a list item or text without \": \" cannot go among keys)"
	case strings.HasPrefix(msg, "found character '\t'"):
		return pos, "a tab in the indentation: YAML indents with spaces only"
	case msg == "sequence end token ']' not found":
		return pos, "this [ list is not closed with ]"
	case msg == "mapping end token '}' not found":
		return pos, "this { mapping is not closed with }"
	case msg == "could not find end character of single-quoted text":
		return pos, "this quoted value has no closing '"
	case msg == "could not find end character of double-quoted text":
		return pos, `this quoted value has no closing "`
	}
	if m := alreadyDefined.FindStringSubmatch(msg); m != nil {
		return pos, fmt.Sprintf("key %q is given twice (first on line %s)", m[1], m[2])
	}
	return pos, msg
}

// misplacedValue explains the parser's "value is not allowed in this
// context": a second ": " on one line, a line that lines up with no key
// above it, or a line indented under a key that already has its value.
func misplacedValue(lines [][]byte, pos *token.Position, line string) (*token.Position, string) {
	col := min(max(pos.Column-1, 0), len(line))
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if col <= indent+len("- ") { // at the start of the line: its indentation
		spaces := "spaces"
		if indent == 1 {
			spaces = "space"
		}
		return pos, fmt.Sprintf("this line is indented %d %s, which lines up with no line above it: "+
			"the keys of one mapping, and the items of one list, start in the same column", indent, spaces)
	}
	if strings.Contains(line[col:], ": ") {
		return pos, `a value holding ": " needs quotes, e.g. key: "a: b"`
	}
	key, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "- "), ":")
	for next := pos.Line; next < len(lines); next++ {
		text := string(lines[next])
		if t := strings.TrimSpace(text); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		at := &token.Position{Line: next + 1, Column: len(text) - len(strings.TrimLeft(text, " ")) + 1}
		return at, fmt.Sprintf("this line is indented more than %s on line %d, which already has a value: "+
			"line it up with %s, or move the value of %s here", key, pos.Line, key, key)
	}
	return pos, `a value holding ": " needs quotes, e.g. key: "a: b"`
}
