package kubespec

import (
	"slices"
	"strings"
	"testing"
)

func TestCheckFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		given  []string
		user   string
		secret string
		err    string
	}{
		{given: nil},
		{given: []string{"rps", "duration", "url", "threshold", "shards"}},
		{given: []string{"output"}, err: "--output: each shard writes its result to its log"},
		{given: []string{"url", "password-file"}, err: "--password-file: the file is on this machine: give --password-secret NAME"},
		{given: []string{"cert", "key"}, err: "--cert: "},
		{given: []string{"kafka-user"}, err: "--kafka-user: the password would have to reach the consumer's pod"},
		{given: []string{"user"}, user: "ves", err: "--user ves: the pods need the password from a Secret"},
		{given: []string{"user", "password-secret"}, user: "ves", secret: "ves-auth"},
		{given: []string{"password-secret-key"}, err: "--password-secret-key goes with --password-secret"},
		{given: []string{"cert-secret-format"}, err: "--cert-secret-format goes with --cert-secret"},
		{given: []string{"cert-secret-format", "cert-secret"}},
		{given: []string{"ready-timeout", "start-at"}, err: "--ready-timeout: the shards wait for each other only without --start-at"},
		{given: []string{"ready-timeout"}},
	}
	for _, tt := range tests {
		err := CheckFlags(func(f string) bool { return slices.Contains(tt.given, f) }, tt.user, tt.secret)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("CheckFlags(%q): %v", tt.given, err)
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("CheckFlags(%q): %v, want %q", tt.given, err, tt.err)
		}
	}
}
