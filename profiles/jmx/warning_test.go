package jmx

import "testing"

func TestRollUp(t *testing.T) {
	t.Parallel()
	w := func(line, group int, reason string) Warning {
		return Warning{Line: line, Element: "AuthManager", Name: "auth", Reason: reason, Group: group}
	}
	got := rollUp([]Warning{w(10, 1, "a"), w(12, 1, "b"), w(20, 2, "a"), w(30, 3, "a"), w(40, 4, "a"), w(50, 0, "c"), w(60, 0, "c")})
	want := []string{
		`lines 10, 20, 30 and 1 more (4 thread groups): AuthManager "auth": a`,
		`line 12: AuthManager "auth": b`,
		`lines 50, 60: AuthManager "auth": c`,
	}
	if len(got) != len(want) {
		t.Fatalf("rollUp gave %d warnings, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if s := got[i].String(); s != want[i] {
			t.Errorf("warning %d = %q, want %q", i, s, want[i])
		}
	}
}
