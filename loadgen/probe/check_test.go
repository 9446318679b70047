package probe

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
)

func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	ok := Options{Target: "http://127.0.0.1:8080/eventListener/v7", Connects: 5, BulkBytes: 32 << 20, Timeout: 10 * time.Second}
	tests := []struct {
		name string
		edit func(o *Options)
		err  string
	}{
		{"valid", func(*Options) {}, ""},
		{"tls listener with a sink", func(o *Options) { o.Target, o.Sink = "tls://collector:6061", "http://127.0.0.1:9/sink" }, ""},
		{"no connects", func(o *Options) { o.Connects = 0 }, "--connects 0: want 1 to 1000"},
		{"too many connects", func(o *Options) { o.Connects = 1001 }, "--connects 1001: want 1 to 1000"},
		{"no bulk", func(o *Options) { o.BulkBytes = 0 }, "--bulk-mib 0: want 1 to 8192"},
		{"too much bulk", func(o *Options) { o.BulkBytes = 8193 << 20 }, "--bulk-mib 8193: want 1 to 8192"},
		{"no timeout", func(o *Options) { o.Timeout = 0 }, "--timeout 0s: want a positive duration"},
		{"bad target", func(o *Options) { o.Target = "ftp://x" }, "ftp"},
		{"sink not a URL", func(o *Options) { o.Sink = "127.0.0.1:9" }, `--sink "127.0.0.1:9": want the http(s) URL`},
	}
	for _, tt := range tests {
		o := ok
		tt.edit(&o)
		err := o.Check()
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
	}
}

// TestSetTLS checks that a CA or a client certificate turns TLS on for a
// bare HOST:PORT, and that a file that cannot be read is the error.
func TestSetTLS(t *testing.T) {
	t.Parallel()
	cert, key, _ := testcert.Write(t)
	tests := []struct {
		name       string
		tls        tlsconf.Options
		wantUseTLS bool
		err        bool
	}{
		{"nothing", tlsconf.Options{}, false, false},
		{"insecure alone", tlsconf.Options{Insecure: true}, false, false},
		{"a CA", tlsconf.Options{CAFile: cert}, true, false},
		{"a client certificate", tlsconf.Options{CertFile: cert, KeyFile: key}, true, false},
		{"a missing CA", tlsconf.Options{CAFile: filepath.Join(t.TempDir(), "none.pem")}, false, true},
	}
	for _, tt := range tests {
		var o Options
		err := o.SetTLS(tt.tls)
		switch {
		case (err != nil) != tt.err:
			t.Errorf("%s: error %v, want one: %v", tt.name, err, tt.err)
		case err == nil && (o.TLS == nil || o.UseTLS != tt.wantUseTLS):
			t.Errorf("%s: TLS %v UseTLS %v, want a configuration and %v", tt.name, o.TLS != nil, o.UseTLS, tt.wantUseTLS)
		case err == nil && o.TLS.InsecureSkipVerify != tt.tls.Insecure:
			t.Errorf("%s: InsecureSkipVerify %v", tt.name, o.TLS.InsecureSkipVerify)
		}
	}
}
