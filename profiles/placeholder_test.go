package profiles

import (
	"slices"
	"strings"
	"testing"
)

// One scanner finds the ${…} expressions for variables, URL checks and
// JMeter's functions alike.
func TestPlaceholders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		exprs []string
		vars  []string
	}{
		{"no placeholder", nil, nil},
		{"${HOST}:${PORT}", []string{"${HOST}", "${PORT}"}, []string{"HOST", "PORT"}},
		{"a ${__time()} b", []string{"${__time()}"}, nil},
		{"${__Random(1,9)}${N}", []string{"${__Random(1,9)}", "${N}"}, []string{"N"}},
		{"${__P(a\\}b)} ${X}", []string{"${__P(a\\}b)}", "${X}"}, []string{"X"}},
		{"${__P(host,${H})}", []string{"${__P(host,${H})}"}, nil},
		{"${__f( never closes ${B}", []string{"${B}"}, []string{"B"}},
		{"${unclosed", nil, nil},
		{"${}", []string{"${}"}, nil},
		{"${1BAD} ${ok_2}", []string{"${1BAD}", "${ok_2}"}, []string{"ok_2"}},
	}
	for _, tt := range tests {
		var got []string
		s := tt.in
		for {
			i, j, ok := NextPlaceholder(s)
			if !ok {
				break
			}
			got = append(got, s[i:j])
			s = s[j:]
		}
		if !slices.Equal(got, tt.exprs) {
			t.Errorf("%q: expressions %q, want %q", tt.in, got, tt.exprs)
		}
		if v := VarsIn(tt.in); !slices.Equal(v, tt.vars) {
			t.Errorf("%q: VarsIn %q, want %q", tt.in, v, tt.vars)
		}
		n := 0
		out := ReplacePlaceholders(tt.in, func(string) string { n++; return "#" })
		if n != len(tt.exprs) || strings.Count(out, "#") != n {
			t.Errorf("%q: replaced %d into %q, want %d", tt.in, n, out, len(tt.exprs))
		}
	}
	if got := expandVars("${HOST}:${PORT}/${__time()}", map[string]string{"HOST": "h", "__time()": "x"}); got != "h:${PORT}/${__time()}" {
		t.Errorf("expandVars = %q", got)
	}
	for s, want := range map[string]bool{"${A}": true, "${__P(a,b)}": true, "${A}x": false, "x${A}": false, "${A": false} {
		if IsPlaceholder(s) != want {
			t.Errorf("IsPlaceholder(%q) = %v", s, !want)
		}
	}
}

func FuzzPlaceholders(f *testing.F) {
	for _, s := range []string{"${A}", "${__P(a\\}b)}", "${__f( ${B}", "${", "}${}", "${__Random(1,${N})}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := ReplacePlaceholders(s, func(e string) string { return e }); got != s {
			t.Fatalf("identity replacement of %q gave %q", s, got)
		}
		rest := s
		for {
			i, j, ok := NextPlaceholder(rest)
			if !ok {
				break
			}
			e := rest[i:j]
			if !strings.HasPrefix(e, "${") || !strings.HasSuffix(e, "}") || !IsPlaceholder(e) {
				t.Fatalf("%q: found %q, not one expression", s, e)
			}
			rest = rest[j:]
		}
	})
}
