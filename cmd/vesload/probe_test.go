package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vesload/vesload/loadgen/probe"
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
	var r probe.Report
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
		{[]string{"ftp://x"}, exitUsage, "want an http(s) URL or HOST:PORT"},
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
