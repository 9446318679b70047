package scenario

import (
	"testing"

	"github.com/vesload/vesload/loadgen"
)

func TestAuthMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  loadgen.Config
		want string
	}{
		{loadgen.Config{}, "none"},
		{loadgen.Config{User: "sample1", Password: "x"}, "basic"},
		{loadgen.Config{TLS: loadgen.TLS{CertFile: "client.p12"}}, "certificate"},
		{loadgen.Config{User: "sample1", TLS: loadgen.TLS{CertFile: "c.pem", KeyFile: "k.pem"}}, "certificate+basic"},
	}
	for _, tc := range tests {
		if got := authMode(tc.cfg); got != tc.want {
			t.Errorf("authMode(%+v) = %q, want %q", tc.cfg, got, tc.want)
		}
	}
}
