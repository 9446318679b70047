package profiles

import (
	"strings"
	"testing"
)

// TestDigest: where a profile was read from does not change its digest;
// what it sends does.
func TestDigest(t *testing.T) {
	t.Parallel()
	base := Profile{Name: "p", Source: "a.yaml"}
	moved := base
	moved.Source = "/elsewhere/b.yaml"
	other := base
	other.Name = "q"
	d := func(p Profile) string {
		s, err := p.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if !strings.HasPrefix(d(base), "sha256:") || len(d(base)) != len("sha256:")+24 {
		t.Errorf("digest %q: want sha256: and 24 hex digits", d(base))
	}
	if d(base) != d(moved) {
		t.Error("the profile's source changed its digest")
	}
	if d(base) == d(other) {
		t.Error("two profiles that differ have one digest")
	}
}

// BenchmarkDigest is the start-up cost every run pays for its scenario's
// digest.
func BenchmarkDigest(b *testing.B) {
	p := Profile{Name: "p", Load: Shape{RPS: 100}, Requests: []Request{{Body: strings.Repeat("{\"a\": 1}\n", 50)}}}
	for b.Loop() {
		if _, err := p.Digest(); err != nil {
			b.Fatal(err)
		}
	}
}
