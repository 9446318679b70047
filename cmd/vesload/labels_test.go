package main

import (
	"maps"
	"strings"
	"testing"
)

// TestParseLabels: --label flags go over the profile's labels (a flag
// replaces the profile's label of the same key) without changing the
// profile's map; none at all is nil; a malformed flag is bad usage naming
// --label.
func TestParseLabels(t *testing.T) {
	t.Parallel()
	profile := map[string]string{"build": "1.9", "team": "ves"}
	for _, tt := range []struct {
		name string
		base map[string]string
		raw  []string
		want map[string]string
		err  string
	}{
		{name: "none", want: nil},
		{name: "profile only", base: profile, want: profile},
		{name: "flags only", raw: []string{"build=2.0"}, want: map[string]string{"build": "2.0"}},
		{name: "flag over profile", base: profile, raw: []string{"build=2.0", "commit=abc"},
			want: map[string]string{"build": "2.0", "team": "ves", "commit": "abc"}},
		{name: "malformed", base: profile, raw: []string{"build"}, err: "--label: label \"build\": want KEY=VALUE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLabels(tt.base, tt.raw)
			switch {
			case tt.err != "":
				if err == nil || !isUsage(err) || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want bad usage saying %q", err, tt.err)
				}
			case err != nil || !maps.Equal(got, tt.want) || (got == nil) != (tt.want == nil):
				t.Errorf("labels %v (%v), want %v", got, err, tt.want)
			}
		})
	}
	if profile["build"] != "1.9" || len(profile) != 2 {
		t.Errorf("the profile's labels changed: %v", profile)
	}
}
