package expect

import (
	"strings"
	"testing"
)

func TestParseAndOK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		items     []string
		ok, nok   []int
		text      string
		isDefault bool
	}{
		{nil, []int{200, 202, 204, 299}, []int{199, 300, 400, 500, 0, -1, 999}, "2xx", true},
		{[]string{"202"}, []int{202}, []int{200, 201, 203, 500}, "202", false},
		{[]string{"202", "200"}, []int{200, 202}, []int{201, 204}, "202,200", false},
		{[]string{"200, 202"}, []int{200, 202}, []int{201}, "200,202", false},
		{[]string{"2XX"}, []int{200, 299}, []int{300}, "2xx", true},
		{[]string{"2xx", "413"}, []int{204, 413}, []int{400, 500}, "2xx,413", false},
		{[]string{"5xx"}, []int{500, 599}, []int{202, 600}, "5xx", false},
	}
	for _, tc := range tests {
		s, err := Parse(tc.items)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.items, err)
		}
		for _, c := range tc.ok {
			if !s.OK(c) {
				t.Errorf("Parse(%q).OK(%d) = false, want true", tc.items, c)
			}
		}
		for _, c := range tc.nok {
			if s.OK(c) {
				t.Errorf("Parse(%q).OK(%d) = true, want false", tc.items, c)
			}
		}
		if s.String() != tc.text || s.IsDefault() != tc.isDefault {
			t.Errorf("Parse(%q) = %q default %v, want %q %v", tc.items, s.String(), s.IsDefault(), tc.text, tc.isDefault)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, item := range []string{"", "20", "2022", "600", "099", "6xx", "0xx", "2x", "abc", "202,", "-202", "+202"} {
		_, err := Parse([]string{item})
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", item)
			continue
		}
		if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "want") {
			t.Errorf("Parse(%q) = %v, want one line saying what is expected", item, err)
		}
	}
}

func TestOKAllocatesNothing(t *testing.T) {
	s, err := Parse([]string{"202"})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.OK(202) }); n != 0 {
		t.Errorf("OK allocates %v times per call, want 0", n)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"202", "2xx", "200,202", "5XX", "", "999", "2x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, item string) {
		s, err := Parse([]string{item})
		if err != nil {
			return
		}
		// What parses reads back to the same set.
		back, err := Parse([]string{s.String()})
		if err != nil {
			t.Fatalf("Parse(%q) -> %q does not parse back: %v", item, s.String(), err)
		}
		for c := 100; c < 600; c++ {
			if s.OK(c) != back.OK(c) {
				t.Fatalf("Parse(%q) and its String %q differ at %d", item, s.String(), c)
			}
		}
	})
}
