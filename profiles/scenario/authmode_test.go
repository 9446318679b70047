package scenario

import (
	"testing"

	"github.com/vesload/vesload/loadgen/engine"
)

func TestAuthMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  engine.Config
		want string
	}{
		{engine.Config{}, "none"},
		{engine.Config{User: "sample1", Password: "x"}, "basic"},
		{engine.Config{TLS: engine.TLS{CertFile: "client.p12"}}, "certificate"},
		{engine.Config{User: "sample1", TLS: engine.TLS{CertFile: "c.pem", KeyFile: "k.pem"}}, "certificate+basic"},
	}
	for _, tc := range tests {
		if got := authMode(tc.cfg); got != tc.want {
			t.Errorf("authMode(%+v) = %q, want %q", tc.cfg, got, tc.want)
		}
	}
}
