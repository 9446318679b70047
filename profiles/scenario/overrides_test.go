package scenario

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles"
)

func ptr[T any](v T) *T { return &v }

func TestApply(t *testing.T) {
	yes, no := true, false
	def := Defaults{RPS: 10, Duration: 10 * time.Second, Pool: 64, Timeout: 10 * time.Second, KeepAlive: true,
		Request: EventRequest("fault", 0, 0, "")}
	ramp := profiles.Shape{Ramp: &profiles.Ramp{From: 10, To: 100, Over: time.Minute}}
	cases := []struct {
		name    string
		profile profiles.Profile
		o       Overrides
		check   func(p *profiles.Profile) string
		err     string
	}{
		{name: "defaults fill an empty profile", check: func(p *profiles.Profile) string {
			want := profiles.Shape{RPS: 10, Duration: 10 * time.Second}
			if !reflect.DeepEqual(p.Load, want) || p.Pool != 64 || p.Timeout != 10*time.Second || p.KeepAlive == nil || !*p.KeepAlive ||
				len(p.Requests) != 1 || p.Requests[0].Event != "fault" {
				return "defaults not applied"
			}
			return ""
		}},
		{name: "the profile's values stay", profile: profiles.Profile{Load: ramp, Pool: 8, Timeout: time.Second, KeepAlive: &no,
			Requests: []profiles.Request{{Name: "x", Event: "heartbeat", Weight: 1}}},
			check: func(p *profiles.Profile) string {
				if p.Load.Ramp == nil || p.Pool != 8 || p.Timeout != time.Second || *p.KeepAlive || p.Requests[0].Name != "x" {
					return "profile overwritten"
				}
				return ""
			}},
		{name: "rps replaces a shape for its length", profile: profiles.Profile{Load: ramp}, o: Overrides{RPS: ptr(5.0)},
			check: func(p *profiles.Profile) string {
				if !reflect.DeepEqual(p.Load, profiles.Shape{RPS: 5, Duration: time.Minute}) {
					return "load " + p.Load.Kind()
				}
				return ""
			}},
		{name: "duration stretches a shape", profile: profiles.Profile{Load: ramp}, o: Overrides{Duration: ptr(2 * time.Minute)},
			check: func(p *profiles.Profile) string {
				if p.Load.Ramp == nil || p.Load.TotalDuration() != 2*time.Minute {
					return "not stretched"
				}
				return ""
			}},
		{name: "a bad duration names the flag", profile: profiles.Profile{Load: ramp}, o: Overrides{Duration: ptr(-time.Second)},
			err: "--duration: duration -1s"},
		{name: "flags win over the profile", profile: profiles.Profile{Pool: 8, KeepAlive: &yes, Target: profiles.Target{URL: "http://a",
			Headers: map[string]string{"X-A": "1"}}},
			o: Overrides{Pool: ptr(2), KeepAlive: ptr(false), PoolWait: ptr(time.Second), URL: ptr("http://b"),
				Headers: []transport.Header{{Name: "X-B", Value: "2"}}, ExpectStatus: []string{"202"}},
			check: func(p *profiles.Profile) string {
				t := p.Target
				if p.Pool != 2 || *p.KeepAlive || p.PoolWait != time.Second || t.URL != "http://b" ||
					!reflect.DeepEqual(t.Headers, map[string]string{"X-A": "1", "X-B": "2"}) || !reflect.DeepEqual(t.ExpectStatus, []string{"202"}) {
					return "overrides not applied"
				}
				return ""
			}},
		{name: "a user without a password file reads the variable", o: Overrides{User: ptr("ves")},
			check: func(p *profiles.Profile) string {
				if a := p.Target.Auth; a == nil || a.User != "ves" || a.PasswordEnv != passwordEnv || a.PasswordFile != "" {
					return "auth not set"
				}
				return ""
			}},
		{name: "a password file replaces the profile's variable", profile: profiles.Profile{Target: profiles.Target{
			Auth: &profiles.Auth{User: "u", PasswordEnv: "P"}}}, o: Overrides{PasswordFile: ptr("pw")},
			check: func(p *profiles.Profile) string {
				if a := p.Target.Auth; a.User != "u" || a.PasswordFile != "pw" || a.PasswordEnv != "" {
					return "password file not set"
				}
				return ""
			}},
		{name: "a client certificate replaces all three", profile: profiles.Profile{Target: profiles.Target{
			TLS: &profiles.TLS{CACert: "ca", Cert: "c.pem", Key: "k.pem"}}}, o: Overrides{ClientCert: &ClientCert{Cert: "c.p12", PassFile: "pass"}, Insecure: ptr(true)},
			check: func(p *profiles.Profile) string {
				if !reflect.DeepEqual(*p.Target.TLS, profiles.TLS{CACert: "ca", Cert: "c.p12", CertPassFile: "pass", Insecure: true}) {
					return "tls not replaced"
				}
				return ""
			}},
		{name: "a request replaces the profile's; raw bodies for templates only", profile: profiles.Profile{Requests: []profiles.Request{{Name: "a"}, {Name: "b"}}},
			o: Overrides{Request: ptr(EventRequest("fault", 0, 0, "body.json")), RawBody: true},
			check: func(p *profiles.Profile) string {
				if len(p.Requests) != 1 || p.Requests[0].Name != "template" || p.Requests[0].Event != "" || !p.Requests[0].RawBody {
					return "request not replaced"
				}
				return ""
			}},
		{name: "thresholds add up", profile: profiles.Profile{Thresholds: []string{"p99<1s"}}, o: Overrides{Thresholds: []string{"error_rate<1%"}},
			check: func(p *profiles.Profile) string {
				if !reflect.DeepEqual(p.Thresholds, []string{"p99<1s", "error_rate<1%"}) {
					return "thresholds " + strings.Join(p.Thresholds, ",")
				}
				return ""
			}},
		{name: "data rows per worker", o: Overrides{DataFile: ptr("rows.csv"), DataPer: ptr(profiles.DataPerWorker)},
			check: func(p *profiles.Profile) string {
				if p.Data == nil || p.Data.File != "rows.csv" || p.Data.Per != profiles.DataPerWorker {
					return "data not set"
				}
				return ""
			}},
		{name: "data-per of another kind", o: Overrides{DataFile: ptr("rows.csv"), DataPer: ptr("pod")}, err: `--data-per: want request or worker, got "pod"`},
		{name: "data-per without rows", o: Overrides{DataPer: ptr(profiles.DataPerWorker)}, err: "--data-per worker: give the rows with --data-file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.profile
			err := Apply(&p, tc.o, def)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Apply: %v, want an error holding %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if msg := tc.check(&p); msg != "" {
				t.Errorf("%s: %+v", msg, p)
			}
		})
	}
}
