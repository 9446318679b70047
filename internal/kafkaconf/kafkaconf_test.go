package kafkaconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		brokers string
		topic   string
		tls     bool
		wantErr string
	}{
		{in: "kafka://k:9092/HV_VES_PERF3GPP", brokers: "k:9092", topic: "HV_VES_PERF3GPP"},
		{in: "kafka://a:1,b:2/t", brokers: "a:1,b:2", topic: "t"},
		{in: "kafkas://[::1]:9093/t", brokers: "[::1]:9093", topic: "t", tls: true},
		{in: "kafka://k:9092", brokers: "k:9092"},
		{in: "http://k:9092/t", wantErr: "scheme"},
		{in: "kafka://k/t", wantErr: "HOST:PORT"},
		{in: "kafka://:9092/t", wantErr: "HOST:PORT"},
		{in: "kafka://u:secret@k:9092/t", wantErr: "no credentials"},
		{in: "kafka://k:9092/a/b", wantErr: "one topic"},
		{in: "kafka://k:9092/t?x=1", wantErr: "query"},
		{in: "::", wantErr: "kafka://"},
		// Go's words (invalid port, parse) never reach the line.
		{in: "kafka://k:99999/t", wantErr: `broker "k:99999": port 99999 out of range (want 1 to 65535)`},
		{in: "kafka://k:0/t", wantErr: "port 0 out of range"},
		{in: "kafka://k:x/t", wantErr: "not a URL: want kafka://HOST:PORT/TOPIC"},
	}
	for _, tt := range tests {
		e, err := ParseURL(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseURL(%q) error %v, want one mentioning %q", tt.in, err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("ParseURL(%q) error %q shows the password", tt.in, err)
			}
			continue
		}
		if err != nil || strings.Join(e.Brokers, ",") != tt.brokers || e.Topic != tt.topic || e.TLS != tt.tls {
			t.Errorf("ParseURL(%q) = %+v, %v", tt.in, e, err)
		}
	}
}

func TestOpts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		c       Config
		n       int
		wantErr string
	}{
		{c: Config{Brokers: []string{"k:1"}}, n: 1},
		{c: Config{Brokers: []string{"k:1"}, User: "u", PasswordFile: pw}, n: 2},
		{c: Config{Brokers: []string{"k:1"}, User: "u", PasswordFile: pw, Mechanism: "plain"}, n: 2},
		{c: Config{Brokers: []string{"k:1"}, User: "u", PasswordFile: pw, Mechanism: "SCRAM-SHA-256"}, n: 2},
		{c: Config{Brokers: []string{"k:1"}, ForceTLS: true}, n: 2},
		{c: Config{}, wantErr: "no Kafka broker"},
		{c: Config{Brokers: []string{"k:1"}, User: "u", PasswordFile: pw, Mechanism: "GSSAPI"}, wantErr: "unknown SASL mechanism"},
		{c: Config{Brokers: []string{"k:1"}, User: "u"}, wantErr: "needs a password file"},
		{c: Config{Brokers: []string{"k:1"}, PasswordFile: pw}, wantErr: "needs a Kafka user"},
		{c: Config{Brokers: []string{"k:1"}, User: "u", PasswordFile: filepath.Join(dir, "none")}, wantErr: "password file"},
	}
	for _, tt := range tests {
		opts, err := tt.c.Opts()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Opts(%+v) error %v, want one mentioning %q", tt.c, err, tt.wantErr)
			}
			continue
		}
		if err != nil || len(opts) != tt.n {
			t.Errorf("Opts(%+v) = %d options, %v; want %d", tt.c, len(opts), err, tt.n)
		}
	}
	if p, err := ReadPassword(pw); err != nil || p != "s3cret" {
		t.Errorf("ReadPassword = %q, %v", p, err)
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"kafka://k:9092/t", "kafkas://a:1,b:2/", "kafka://[::1]:1/x", "kafka://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseURL(s)
		if err != nil {
			return
		}
		if len(e.Brokers) == 0 || strings.Contains(e.Topic, "/") {
			t.Fatalf("ParseURL(%q) = %+v without error", s, e)
		}
	})
}
