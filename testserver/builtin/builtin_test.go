package builtin

import (
	"slices"
	"strings"
	"testing"
)

// TestParse checks the announced line: every listener must be named.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		line    string
		want    Addrs
		wantErr bool
	}{
		{`{"url":"http://127.0.0.1:1","hv":"127.0.0.1:2","hv_monitor":"127.0.0.1:3","kafka":"127.0.0.1:4","seed":7}`,
			Addrs{URL: "http://127.0.0.1:1", HV: "127.0.0.1:2", HVMonitor: "127.0.0.1:3", Kafka: "127.0.0.1:4", Seed: 7}, false},
		{`{"url":"http://127.0.0.1:1","hv":"127.0.0.1:2"}`, Addrs{}, true},
		{`not json`, Addrs{}, true},
		{``, Addrs{}, true},
	} {
		var a Addrs
		err := a.parse([]byte(c.line))
		if (err != nil) != c.wantErr || (err == nil && a != c.want) {
			t.Errorf("parse(%q) = %+v, %v; want %+v, error %v", c.line, a, err, c.want, c.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "the built-in emulator") {
			t.Errorf("parse(%q): error %q does not name the emulator", c.line, err)
		}
	}
}

// TestArgs checks that the child listens on loopback only and announces
// its addresses.
func TestArgs(t *testing.T) {
	args := Args()
	for _, want := range []string{"serve", "--announce", "--stop-on-stdin-eof", "--kafka-bounded"} {
		if !slices.Contains(args, want) {
			t.Errorf("Args() = %q: no %s", args, want)
		}
	}
	for i, a := range args {
		if strings.HasSuffix(a, "-listen") || a == "--kafka-embedded" || a == "--hv-monitor" {
			if i+1 >= len(args) || !strings.HasPrefix(args[i+1], "127.0.0.1:") {
				t.Errorf("%s is not on loopback: %q", a, args)
			}
		}
	}
}
