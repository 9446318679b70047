package main

import (
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/testserver"
)

func TestProbeCLI(t *testing.T) {
	t.Parallel()
	emu, err := testserver.Start(testserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	sink, err := testserver.StartSink("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	code, out, errs := cliRun(runProbe, emu.URL()+"/healthcheck", "--sink", sink.URL(), "--bulk-mib", "2", "--connects", "2")
	if code != exitOK || !strings.Contains(out, "tcp connect    median") || !strings.Contains(out, "(status 200)") || !strings.Contains(out, "MB/s (2 MiB in") {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errs)
	}
	code, out, _ = cliRun(runProbe, strings.TrimPrefix(emu.URL(), "http://"), "--json")
	var r result.Probe
	if code != exitOK || json.Unmarshal([]byte(out), &r) != nil || len(r.ConnectMs) != 5 || r.HTTPStatus != 0 {
		t.Fatalf("HOST:PORT --json: exit %d %q", code, out)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "want one target"},
		{[]string{"a", "b"}, exitUsage, "want one target"},
		{[]string{"ftp://x"}, exitUsage, "want an http(s) URL, tls://HOST:PORT or HOST:PORT"},
		{[]string{emu.URL(), "--connects", "0"}, exitUsage, "--connects 0"},
		{[]string{emu.URL(), "--bulk-mib", "0"}, exitUsage, "--bulk-mib 0"},
		{[]string{emu.URL(), "--sink", "x:1"}, exitUsage, "--sink \"x:1\""},
		{[]string{emu.URL(), "--cacert", "/nonexistent"}, exitUsage, "/nonexistent"},
		{[]string{emu.URL(), "--sink", emu.URL() + "/x", "--bulk-mib", "1"}, exitRun, "not a vesload sink"},
	}
	for _, tt := range tests {
		code, _, errs := cliRun(runProbe, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stderr %q, want exit %d and one line with %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}

// probe HOST:PORT with --cacert is a TLS probe; a failing step still
// prints what was measured before the one error line.
func TestProbeCLITLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimPrefix(srv.URL, "https://")
	for _, target := range []string{addr, "tls://" + addr} {
		code, out, errs := cliRun(runProbe, target, "--cacert", ca, "--connects", "2")
		if code != exitOK || !strings.Contains(out, "tls handshake") || strings.Contains(out, "http round trip") {
			t.Errorf("%s --cacert: exit %d stdout %q stderr %q, want a TLS handshake and no HTTP", target, code, out, errs)
		}
	}
	// Without the CA the handshake is refused: the connects are still shown.
	code, out, errs := cliRun(runProbe, "tls://"+addr, "--connects", "2")
	if code != exitRun || !strings.Contains(out, "tcp connect    median") || !strings.Contains(errs, "tls handshake") || strings.Count(errs, "\n") != 1 {
		t.Errorf("unverified: exit %d stdout %q stderr %q, want the connects and one error line", code, out, errs)
	}
}
