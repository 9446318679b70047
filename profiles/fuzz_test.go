package profiles

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the decoder panic, that every error
// is one line (with a position inside the input when it has one), and that
// every accepted profile survives Marshal and Parse unchanged.
func FuzzParse(f *testing.F) {
	for _, b := range Builtins() {
		data, err := BuiltinYAML(b.Name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		fullProfile, templated, "lod: 1\n", "load: {rps: 1, duration: 10 minutes}\n", "a: [\n",
		"target: {auth: {user: u, password: p}}\n", "&a x: *a\n", "load: !!str 5\n", "- a\n- b\n",
		"requests:\n  - body: |\n      {\"a\": ${__UUID()}}\n", "load:\n  stages:\n    - ramp: {from: 0, to: 1e7, over: 1s}\n",
		"? [a]\n: b\n", "<<: {pool: 1}\n", "pool: 0x10\n", "pool: 1_000\n",
		"load: " + strings.Repeat("[", 200) + "\n", strings.Repeat("- ", 200) + "x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data, "fuzz.yaml")
		if err != nil {
			checkErrorLine(t, err, data)
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed profile does not validate: %v", err)
		}
		out, err := p.Marshal()
		if err != nil {
			t.Fatalf("marshal a parsed profile: %v", err)
		}
		q, err := Parse(out, "fuzz.yaml")
		if err != nil {
			t.Fatalf("re-parse marshalled profile: %v\n--- input\n%s\n--- marshalled\n%s", err, data, out)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the profile:\n%#v\n%#v\n--- marshalled\n%s", p, q, out)
		}
	})
}

func checkErrorLine(t *testing.T, err error, data []byte) {
	t.Helper()
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("error spans lines: %q", msg)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not a *profiles.Error: %v", err, err)
	}
	// YAML breaks lines at \n, \r\n and a lone \r.
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 1; pe.Line > lines {
		t.Fatalf("error at line %d of a %d-line input: %v", pe.Line, lines, err)
	}
}

// FuzzCheckDepth checks that the nesting scan ends on any text, never
// panics, and refuses in one line with a position inside the input.
func FuzzCheckDepth(f *testing.F) {
	for _, s := range []string{
		fullProfile, "a: [[[", "a: \"[[[\"\n", "body: |\n  [[[\nb: ]", "- - - x\n", "a: x - \"\nb: [[\n",
		"a: 'it''s [' # [[\n", "a: {\"b\":[1,{\"c\":\"]\"}]}\n", "? - [\n: x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := checkDepth(data, "fuzz.yaml")
		if err != nil {
			checkErrorLine(t, err, data)
		}
	})
}
