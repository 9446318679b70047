package scenario

import (
	"testing"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/transport/rest"
)

func TestAuthMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  rest.Options
		want string
	}{
		{rest.Options{}, "none"},
		{rest.Options{User: "sample1", Password: "x"}, "basic"},
		{rest.Options{TLS: tlsconf.Options{CertFile: "client.p12"}}, "certificate"},
		{rest.Options{User: "sample1", TLS: tlsconf.Options{CertFile: "c.pem", KeyFile: "k.pem"}}, "certificate+basic"},
	}
	for _, tc := range tests {
		if got := authMode(tc.cfg); got != tc.want {
			t.Errorf("authMode(%+v) = %q, want %q", tc.cfg, got, tc.want)
		}
	}
}
