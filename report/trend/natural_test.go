package trend

import (
	"slices"
	"testing"
)

// TestNaturalOrder: versions sort as people read them.
func TestNaturalOrder(t *testing.T) {
	t.Parallel()
	got := []string{"1.10.0", "1.9.1", "1.9", "build-10", "build-9", "2.0", "1.9.1-rc1", "10", "9", "1.02", "1.2", "abc"}
	slices.SortFunc(got, NaturalCompare)
	want := []string{"1.02", "1.2", "1.9", "1.9.1", "1.9.1-rc1", "1.10.0", "2.0", "9", "10", "abc", "build-9", "build-10"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}

// FuzzNaturalCompare: the order is a total order (antisymmetric,
// reflexive only on equal names, transitive on three names) and never
// panics.
func FuzzNaturalCompare(f *testing.F) {
	for _, s := range [][3]string{{"1.9.1", "1.10.0", "1.10"}, {"a01", "a1", "a001"}, {"", "0", "00"}, {"x9y", "x10y", "x9z"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := NaturalCompare(a, b), NaturalCompare(b, a)
		if ab != -ba {
			t.Fatalf("compare(%q,%q)=%d but compare(%q,%q)=%d", a, b, ab, b, a, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("compare(%q,%q)=0 for different names", a, b)
		}
		if ab < 0 && NaturalCompare(b, c) < 0 && NaturalCompare(a, c) >= 0 {
			t.Fatalf("%q < %q < %q but not %q < %q", a, b, c, a, c)
		}
	})
}
