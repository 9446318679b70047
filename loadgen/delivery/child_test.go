package delivery

import (
	"slices"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
)

// TestArgs checks the follower's arguments: the run's options passed on,
// the group defaulting to the run id's.
func TestArgs(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		want []string
	}{
		{"defaults", Options{URL: "kafka://b:9092/T", Mechanism: "PLAIN"},
			[]string{"consume", "kafka://b:9092/T", "--parent", "--grace", "30s", "--group", "vesload-r1", "--kafka-mechanism", "PLAIN"}},
		{"every option", Options{URL: "kafkas://b:9093/T", Group: "g", User: "u", PasswordFile: "pw", Mechanism: "SCRAM-SHA-512",
			TLS: tlsconf.Options{CAFile: "ca", CertFile: "c", KeyFile: "k", Insecure: true}},
			[]string{"consume", "kafkas://b:9093/T", "--parent", "--grace", "30s", "--group", "g", "--kafka-mechanism", "SCRAM-SHA-512",
				"--kafka-user", "u", "--kafka-password-file", "pw", "--kafka-cacert", "ca", "--kafka-cert", "c", "--kafka-key", "k", "--kafka-insecure"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.o.Args("r1", 30*time.Second); !slices.Equal(got, c.want) {
				t.Errorf("Args = %q\nwant   %q", got, c.want)
			}
		})
	}
}
