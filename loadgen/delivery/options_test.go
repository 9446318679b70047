package delivery

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
)

// TestOptionsCheck: every bad option is a usage error naming it.
func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := Options{URL: "kafka://127.0.0.1:9092/t", Mechanism: kafkaconf.SCRAMSHA512}
	with := func(f func(*Options)) Options { o := ok; f(&o); return o }
	tests := []struct {
		name string
		o    Options
		want string // "" when accepted
	}{
		{"kafka", ok, ""},
		{"kafkas with a user", with(func(o *Options) { o.URL, o.User, o.PasswordFile = "kafkas://h:9093/t", "u", pw }), ""},
		{"dmaap", with(func(o *Options) { o.URL = "dmaap://h:3904/events/T/g/c" }), ""},
		{"no URL", with(func(o *Options) { o.URL = "" }), ""},
		{"another scheme", with(func(o *Options) { o.URL = "http://h/t" }), `--consume "http://h/t": want kafka://`},
		{"no topic", with(func(o *Options) { o.URL = "kafka://h:9092" }), "--consume: want kafka://HOST:PORT/TOPIC: the topic is missing"},
		{"bad DMaaP path", with(func(o *Options) { o.URL = "dmaap://h:3904/x" }), "--consume: "},
		{"bad mechanism", with(func(o *Options) { o.Mechanism = "MD5" }), "--kafka-mechanism: "},
		{"password without user", with(func(o *Options) { o.PasswordFile = pw }), "--kafka-password-file: needs --kafka-user"},
		{"missing password file", with(func(o *Options) { o.User, o.PasswordFile = "u", filepath.Join(dir, "nope") }), "--kafka-password-file: "},
		{"missing CA", with(func(o *Options) { o.TLS = tlsconf.Options{CAFile: filepath.Join(dir, "ca.pem")} }), "--kafka-cacert: "},
	}
	for _, tt := range tests {
		err := tt.o.Check()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an option error beginning %q", tt.name, err, tt.want)
		}
	}
}

// TestOpenFailsBeforeTheRun: a source that cannot be reached is an error
// naming the URL, and not an option's.
func TestOpenFailsBeforeTheRun(t *testing.T) {
	t.Parallel()
	o := Options{URL: "dmaap://127.0.0.1:1/events/T/g/c"}
	_, err := o.Open("r", 2*time.Second)
	if err == nil || !strings.HasPrefix(err.Error(), "--consume dmaap://127.0.0.1:1/events/T/g/c: preflight: ") || usage.Is(err) {
		t.Errorf("%v, want a preflight error", err)
	}
}
