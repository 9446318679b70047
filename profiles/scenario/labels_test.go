package scenario

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

// TestLabels: a profile's labels and the command line's reach the
// result's config, a --label replacing the profile's of the same key;
// a malformed label key in a profile is refused with its path.
func TestLabels(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:8080/eventListener/v7"
	p, err := profiles.Parse([]byte("name: nightly\nlabels: {build: 1.9.0, team: ves}\ntarget: {url: "+url+"}\nload: {rps: 5, duration: 2s}\n"), "nightly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(p, Overrides{Labels: map[string]string{"build": "1.9.1", "commit": "abc"}}, Defaults{}); err != nil {
		t.Fatal(err)
	}
	resolved, err := Resolve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := Compile(resolved, Options{Version: "test", RunID: "run1", LookupEnv: env()})
	if err != nil {
		t.Fatal(err)
	}
	if got := pl.RunConfig.LabelText(); got != "build=1.9.1, commit=abc, team=ves" {
		t.Errorf("labels %q, want build=1.9.1, commit=abc, team=ves", got)
	}
	_, err = profiles.Parse([]byte("name: bad\nlabels: {\"1build\": x}\nload: {rps: 5, duration: 2s}\n"), "bad.yaml")
	if err == nil || !strings.Contains(err.Error(), "labels.1build") {
		t.Errorf("bad label key: %v", err)
	}
}
