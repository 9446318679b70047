package profiles

import "testing"

// TestYAMLErrorsInUserWords: a mis-indented or mistyped profile is
// answered in words about what was written, at the line at fault, not in
// the YAML parser's ("value is not allowed in this context").
func TestYAMLErrorsInUserWords(t *testing.T) {
	t.Parallel()
	tests := []struct{ yaml, want string }{
		{"name: x\nload:\n  rps: 10\n   duration: 5s\n",
			"p.yaml:4:4: this line is indented more than rps on line 3, which already has a value: line it up with rps, or move the value of rps here"},
		{"name: x\n  load: 1\n",
			"p.yaml:2:3: this line is indented more than name on line 1, which already has a value: line it up with name, or move the value of name here"},
		{"name: x\nload:\n  rps: 10\n duration: 5s\n",
			"p.yaml:4:2: this line is indented 1 space, which lines up with no line above it: the keys of one mapping, and the items of one list, start in the same column"},
		{"name: x\nrequests:\n  - event: fault\n   weight: 1\n",
			"p.yaml:4:4: this line is indented 3 spaces, which lines up with no line above it: the keys of one mapping, and the items of one list, start in the same column"},
		{"name: x\nload:\n  rps: 10\nduration 5s\n",
			`p.yaml:4:1: want key: value here, as on the lines above (a list item or text without ": " cannot go among keys)`},
		{"name: x\n\tload: 1\n", "p.yaml:2:1: a tab in the indentation: YAML indents with spaces only"},
		{"name: [x\n", "p.yaml:1:7: this [ list is not closed with ]"},
		{"name: 'x\n", "p.yaml:1:7: this quoted value has no closing '"},
		{"name: x\nname: y\n", `p.yaml:2:1: key "name" is given twice (first on line 1)`},
		{"name: a: b\n", `p.yaml:1:7: a value holding ": " needs quotes, e.g. key: "a: b"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.yaml), "p.yaml")
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q):\n got  %v\n want %s", tt.yaml, err, tt.want)
		}
	}
}
