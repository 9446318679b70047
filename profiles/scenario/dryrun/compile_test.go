package dryrun

import (
	"testing"

	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// TestCompile checks that a profile without a target is compiled against
// the emulator's stand-in and said to be emulated, and one with a target
// keeps it.
func TestCompile(t *testing.T) {
	for _, c := range []struct {
		url          string
		wantURL      string
		wantEmulated bool
	}{
		{"", Target, true},
		{"http://127.0.0.1:9/eventListener/v7", "http://127.0.0.1:9/eventListener/v7", false},
	} {
		sc, err := profiles.Load("ves-50rps-10m")
		if err != nil {
			t.Fatal(err)
		}
		sc.Target.URL = c.url
		plan, emulated, err := Compile(sc, scenario.Options{Version: "test", RunID: "r1"})
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.url, err)
		}
		if plan.URL != c.wantURL || emulated != c.wantEmulated {
			t.Errorf("Compile(%q) = %s, emulated %v; want %s, %v", c.url, plan.URL, emulated, c.wantURL, c.wantEmulated)
		}
	}
}
