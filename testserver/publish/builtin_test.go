package publish

import "testing"

// TestBuiltinURL checks where a run against the built-in emulator
// follows its events: the domain's topic, stndDefined by the built-in
// event's namespace, nothing for a domain the collector does not publish.
func TestBuiltinURL(t *testing.T) {
	for _, c := range []struct{ domain, want string }{
		{"fault", "kafka://127.0.0.1:9092/" + Topic("fault", "")},
		{"stndDefined", "kafka://127.0.0.1:9092/" + Topic("stndDefined", BuiltinNamespace)},
		{"notification", ""},
		{"", ""},
	} {
		if got := BuiltinURL("127.0.0.1:9092", c.domain); got != c.want {
			t.Errorf("BuiltinURL(%q) = %q, want %q", c.domain, got, c.want)
		}
	}
	if Topic("stndDefined", BuiltinNamespace) == "" {
		t.Error("the built-in stndDefined namespace has no topic")
	}
}
