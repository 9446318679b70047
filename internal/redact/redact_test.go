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
		// Passwords in the query: InfluxDB's p= and the usual names of
		// passwords, tokens and keys, whatever their case or escaping.
		"http://influx:8086/write?db=jmeter&u=inf&p=SECRET":       "http://influx:8086/write?db=jmeter&u=inf&p=xxxxx",
		"http://a:b@h/write?db=j&P=SECRET&x=1":                    "http://a:xxxxx@h/write?db=j&P=xxxxx&x=1",
		"https://h/x?password=SECRET;pass=SECRET&Pwd=SECRET":      "https://h/x?password=xxxxx;pass=xxxxx&Pwd=xxxxx",
		"https://h/x?TOKEN=SECRET&access_token=SECRET#frag":       "https://h/x?TOKEN=xxxxx&access_token=xxxxx#frag",
		"https://h/x?api_key=SECRET&apikey=SECRET&secret=SECRET":  "https://h/x?api_key=xxxxx&apikey=xxxxx&secret=xxxxx",
		"https://h/x?api%5Fkey=SECRET&passwd=SECRET":              "https://h/x?api%5Fkey=xxxxx&passwd=xxxxx",
		`influx url "http://h/write?db=j&p=SECRET": no host`:      `influx url "http://h/write?db=j&p=xxxxx": no host`,
		"http://h/write?db=jmeter&u=inf&pp=1&page=2&ps=3":         "http://h/write?db=jmeter&u=inf&pp=1&page=2&ps=3",
		"http://h/x?p=SECRET http://h/y?q=1&token=SECRET and a=b": "http://h/x?p=xxxxx http://h/y?q=1&token=xxxxx and a=b",
		"http://h/x?p=": "http://h/x?p=xxxxx",
		"x=1 p=2":       "x=1 p=2",
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
		{"X-Callback", "https://h/cb?token=t0k", "https://h/cb?token=xxxxx"},
	}
	for _, tt := range tests {
		if got := Header(tt.name, tt.value); got != tt.want {
			t.Errorf("Header(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

// FuzzURLQuery checks that the value of a secret query parameter never
// survives redaction, whatever surrounds it.
func FuzzURLQuery(f *testing.F) {
	for _, s := range []string{"http://h/w?db=j&p=%s", "a http://h/?x=1;PASSWORD=%s&y b", `"h?token=%s"`, "?p=%s#x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		const pw = "s3cr3tpw"
		in := strings.Replace(pattern, "%s", pw, 1)
		i := strings.Index(in, pw)
		if strings.Count(in, pw) != 1 || i < 2 || in[i-2:i] != "p=" {
			return
		}
		before := in[:i-2]
		if q := strings.LastIndexAny(before, " \t\r\n"); q >= 0 {
			before = before[q+1:]
		}
		// The parameter holding the password starts after the word's
		// first '?' or its last '&' or ';', and its name holds no '='.
		q := strings.IndexByte(before, '?')
		if q < 0 || strings.ContainsAny(before, "#\"'`") {
			return
		}
		param := before[q+1:]
		if d := strings.LastIndexAny(param, "&;"); d >= 0 {
			param = param[d+1:]
		}
		if strings.Contains(param, "=") || strings.Trim(param, "?") != "" {
			return
		}
		if out := URL(in); strings.Contains(out, pw) {
			t.Fatalf("URL(%q) = %q shows the password", in, out)
		}
	})
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
