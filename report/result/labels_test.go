package result

import (
	"strings"
	"testing"
)

// TestParseLabel: KEY=VALUE with a well-formed key; anything else is one
// line naming the mistake.
func TestParseLabel(t *testing.T) {
	for _, c := range []struct{ in, key, value, err string }{
		{"build=1.9.1", "build", "1.9.1", ""},
		{"commit=abc=def", "commit", "abc=def", ""},
		{"note=", "note", "", ""},
		{"k8s.cluster-name=lab 2", "k8s.cluster-name", "lab 2", ""},
		{"build", "", "", "want KEY=VALUE"},
		{"=1.0", "", "", "the key is empty"},
		{"1build=x", "", "", "starting with a letter"},
		{"bu ild=x", "", "", "character ' ' at 3"},
		{"build=a\nb", "", "", "unprintable"},
	} {
		k, v, err := ParseLabel(c.in)
		switch {
		case c.err == "" && (err != nil || k != c.key || v != c.value):
			t.Errorf("ParseLabel(%q) = %q, %q, %v; want %q, %q", c.in, k, v, err, c.key, c.value)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseLabel(%q): error %v, want one saying %q", c.in, err, c.err)
		}
	}
}

// FuzzParseLabel: any input is either refused with one line or gives a
// key and value that rebuild it.
func FuzzParseLabel(f *testing.F) {
	for _, s := range []string{"build=1.9.1", "=", "a=b=c", "x\x00=y", "é=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, v, err := ParseLabel(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of %q spans lines: %v", s, err)
			}
			return
		}
		if k+"="+v != s || k == "" {
			t.Fatalf("ParseLabel(%q) = %q, %q", s, k, v)
		}
	})
}
