package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"https://collector:8443/eventListener/v7":            "https://collector:8443/eventListener/v7",
		"https://u:p@collector:8443/x?a=b":                   "https://u:xxxxx@collector:8443/x?a=b",
		"metrics:https://admin:t0k@en@h/actuator/prometheus": "metrics:https://admin:xxxxx@h/actuator/prometheus",
		"https://user@h/ and http://a:b@c":                   "https://user@h/ and http://a:xxxxx@c",
		"pid:1234":                                           "pid:1234",
		"":                                                   "",
		// A password holding '/' unescaped, a malformed host, a URL
		// without a scheme and a user info in a path: all hidden.
		"http://u:pa/ss@host/x":        "http://u:xxxxx@host/x",
		`--url "http://u:pw@[::1/x"`:   `--url "http://u:xxxxx@[::1/x"`,
		"u:pw@host":                    "u:xxxxx@host",
		"x://a/user:s3cr3tpw@b":        "x://a/user:xxxxx@b",
		"mail a@b.example\tand\nmore":  "mail a@b.example\tand\nmore",
		"two  spaces http://u:p@h end": "two  spaces http://u:xxxxx@h end",
	}
	for in, want := range tests {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeader(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, value, want string }{
		{"Authorization", "Basic c2FtcGxlMTpzYW1wbGUx", Mask},
		{"proxy-authorization", "Basic x", Mask},
		{"Cookie", "session=1", Mask},
		{"X-Api-Key", "k", Mask},
		{"X-Auth-Token", "t", Mask},
		{"X-Vendor-Secret", "s", Mask},
		{"X-Tenant", "onap", "onap"},
		{"X-Trace", "on", "on"},
		{"X-Callback", "https://u:p@h/cb", "https://u:xxxxx@h/cb"},
	}
	for _, tt := range tests {
		if got := Header(tt.name, tt.value); got != tt.want {
			t.Errorf("Header(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

// FuzzURL checks that a password written as the user info of a URL never
// survives redaction, whatever surrounds it.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://u:%s@h/x", "a %s b", "x://a/u:%s@b c", "u:%s@h", "http://u:%s@[::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		const pw = "s3cr3tpw"
		in := strings.Replace(pattern, "%s", pw, 1)
		if strings.Count(in, pw) != 1 || !strings.Contains(in, ":"+pw+"@") {
			return
		}
		if out := URL(in); strings.Contains(out, pw) {
			t.Fatalf("URL(%q) = %q shows the password", in, out)
		}
	})
}
