package testserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
)

func TestInputCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	emptyAuth, goodAuth := write("empty", "\n"), write("auth", " u:p\n")
	cert, key, _ := testcert.Write(t)
	base := Input{Options: Options{Compat: CompatV72, BackendPool: DefaultBackendPool, Streams: DefaultStreams, AuthCost: 10}}
	tests := []struct {
		name string
		edit func(in *Input)
		want string // "" when valid
		ok   func(o Options) bool
	}{
		{"defaults", func(*Input) {}, "", func(o Options) bool { return o.Auth == "" && o.AuthCost == 0 && o.BackendQueue == 0 }},
		{"legacy, none", func(in *Input) { in.Compat = "None" }, "", nil},
		{"bad compat", func(in *Input) { in.Compat = "v8" }, `--compat: want v7.2, legacy or kafka, got "v8"`, nil},
		{"bad streams", func(in *Input) { in.Streams = "fault" }, "--streams: ", nil},
		{"error rate above 1", func(in *Input) { in.ErrorRate = 2 }, "--error-rate: want a fraction between 0 and 1, got 2", nil},
		{"error rate negative", func(in *Input) { in.ErrorRate = -0.1 }, "--error-rate", nil},
		{"no pool", func(in *Input) { in.BackendPool = 0 }, "--backend-pool: want at least 1, got 0", nil},
		{"negative queue", func(in *Input) { in.BackendQueue = -1 }, "--backend-queue: must not be negative, got -1", nil},
		{"queue given as 0", func(in *Input) { in.QueueGiven = true }, "", func(o Options) bool { return o.BackendQueue == -1 }},
		{"queue given as 3", func(in *Input) { in.QueueGiven, in.BackendQueue = true, 3 }, "", func(o Options) bool { return o.BackendQueue == 3 }},
		{"negative publish time", func(in *Input) { in.PublishTime = -time.Second }, "--publish-time: must not be negative, got -1s", nil},
		{"negative jitter", func(in *Input) { in.Jitter = -time.Second }, "--jitter: must not be negative", nil},
		{"jitter over latency", func(in *Input) { in.Latency, in.Jitter = time.Millisecond, 5*time.Millisecond }, "--jitter 5ms: must not exceed --latency 1ms", nil},
		{"stall", func(in *Input) { in.Stall = "2s@10s" }, "", func(o Options) bool { return o.Stall == 2*time.Second && o.StallAt == 10*time.Second }},
		{"bad stall", func(in *Input) { in.Stall = "2s" }, "--stall: want DURATION@START", nil},
		{"auth", func(in *Input) { in.AuthText = "u:p" }, "", func(o Options) bool { return o.Auth == "u:p" && o.AuthCost == 10 }},
		{"auth from a file", func(in *Input) { in.AuthFile = goodAuth }, "", func(o Options) bool { return o.Auth == "u:p" }},
		{"auth without a colon", func(in *Input) { in.AuthText = "secretonly" }, "--auth: want USER:PASS", nil},
		{"auth twice", func(in *Input) { in.AuthText, in.AuthFile = "a:b", emptyAuth }, "--auth and --auth-file: give only one", nil},
		{"empty auth file", func(in *Input) { in.AuthFile = emptyAuth }, "--auth-file: want USER:PASS", nil},
		{"missing auth file", func(in *Input) { in.AuthFile = filepath.Join(dir, "missing") }, "--auth-file: ", nil},
		{"cert without key", func(in *Input) { in.TLSCertFile = cert }, "--tls-cert and --tls-key: give both", nil},
		{"unreadable pair", func(in *Input) { in.TLSCertFile, in.TLSKeyFile = emptyAuth, emptyAuth }, "--tls-cert/--tls-key: ", nil},
		{"TLS", func(in *Input) { in.TLSCertFile, in.TLSKeyFile = cert, key }, "", nil},
		{"auth cost too low", func(in *Input) { in.AuthText, in.AuthCost = "a:b", 3 }, "--auth-cost: want 4..", nil},
		{"auth cost too high", func(in *Input) { in.AuthText, in.AuthCost = "a:b", MaxAuthCost+1 }, "--auth-cost: want 4..", nil},
		{"plain comparison", func(in *Input) { in.AuthText, in.AuthCost = "a:b", 0 }, "", func(o Options) bool { return o.AuthCost == 0 }},
		{"client CA without TLS", func(in *Input) { in.AuthText, in.ClientCAFile = "a:b", "ca.pem" }, "--client-ca: needs --tls-cert and --auth", nil},
		{"HTTP port without auth", func(in *Input) { in.HTTPAddr = "127.0.0.1:0" }, "--http-listen: needs", nil},
		{"certBasicAuth", func(in *Input) {
			in.TLSCertFile, in.TLSKeyFile, in.AuthText, in.ClientCAFile, in.HTTPAddr = cert, key, "a:b", "ca.pem", "127.0.0.1:0"
		}, "", nil},
	}
	for _, tt := range tests {
		in := base
		tt.edit(&in)
		o, err := in.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		case err != nil && strings.Contains(err.Error(), "secretonly"):
			t.Errorf("%s: %v echoes the credentials", tt.name, err)
		case tt.ok != nil && err == nil && !tt.ok(o):
			t.Errorf("%s: options %+v", tt.name, o)
		}
	}
}

func TestParseStall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		stall, at time.Duration
		wantErr   string
	}{
		{in: ""},
		{in: "2s@10s", stall: 2 * time.Second, at: 10 * time.Second},
		{in: "500ms@0s", stall: 500 * time.Millisecond},
		{in: "1m@1h30m", stall: time.Minute, at: 90 * time.Minute},
		{in: "2s", wantErr: "DURATION@START"},
		{in: "@10s", wantErr: "before @"},
		{in: "0s@10s", wantErr: "positive"},
		{in: "2s@", wantErr: "after @"},
		{in: "2s@-1s", wantErr: "after @"},
		{in: "x@y", wantErr: "before @"},
	}
	for _, tc := range tests {
		stall, at, err := ParseStall(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseStall(%q) error = %v, want one mentioning %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || stall != tc.stall || at != tc.at {
			t.Errorf("ParseStall(%q) = %v, %v, %v; want %v, %v", tc.in, stall, at, err, tc.stall, tc.at)
		}
	}
}

// FuzzParseStall checks that stall parsing never panics and that what
// it accepts is a positive stall at a non-negative start that survives
// a round trip through its own notation.
func FuzzParseStall(f *testing.F) {
	for _, s := range []string{"", "2s@10s", "1m@0s", "@", "2s@", "@1s", "0@0", "1h2m3.5s@-1ns", "2s@10s@1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stall, at, err := ParseStall(s)
		if err != nil || s == "" {
			return
		}
		if stall <= 0 || at < 0 {
			t.Fatalf("ParseStall(%q) = %v, %v: want a positive stall at a non-negative start", s, stall, at)
		}
		stall2, at2, err := ParseStall(stall.String() + "@" + at.String())
		if err != nil || stall2 != stall || at2 != at {
			t.Fatalf("round trip of %q: %v, %v, %v; want %v, %v", s, stall2, at2, err, stall, at)
		}
	})
}

// TestDefaultSchemaDir checks where the schemas are looked for when
// none is named: under $VESLOAD_SHARED, else beside the repository.
func TestDefaultSchemaDir(t *testing.T) {
	for _, c := range []struct{ shared, want string }{
		{"", filepath.Join("..", "shared", "ves")},
		{"/srv/onap", filepath.Join("/srv/onap", "ves")},
	} {
		t.Setenv("VESLOAD_SHARED", c.shared)
		if got := DefaultSchemaDir(); got != c.want {
			t.Errorf("VESLOAD_SHARED=%q: %q, want %q", c.shared, got, c.want)
		}
	}
}
