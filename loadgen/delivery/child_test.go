package delivery

import (
	"slices"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/report/result"
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

// TestChildExpected checks what a follower waits for: the events of the
// requests sent, or, for a run whose requests get no answer (HV-VES), every
// message written.
func TestChildExpected(t *testing.T) {
	for _, c := range []struct {
		name  string
		child Child
		res   result.Result
		want  int64
	}{
		{"REST, one event a request", Child{batch: 1}, result.Result{Requests: result.Requests{Sent: 40}}, 40},
		{"REST, batches of 5", Child{batch: 5}, result.Result{Requests: result.Requests{Sent: 40}}, 200},
		{"HV-VES, written", Child{batch: 1, noAnswers: true},
			result.Result{Requests: result.Requests{Sent: 40}, HV: &result.HV{Sent: result.HVCounts{Written: 37}}}, 37},
		{"HV-VES without its section", Child{batch: 1, noAnswers: true}, result.Result{Requests: result.Requests{Sent: 40}}, 0},
	} {
		if got := c.child.Expected(&c.res); got != c.want {
			t.Errorf("%s: expected %d, want %d", c.name, got, c.want)
		}
	}
}
