package builtin

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestChildDeclare checks that the flags Args passes are the ones Child
// declares, hidden from the usage.
func TestChildDeclare(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want Child
	}{
		{"none", nil, Child{}},
		{"Args", Args()[1:], Child{Announce: true, StopOnStdinEOF: true, Bounded: true}},
		{"announce only", []string{"--announce"}, Child{Announce: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
			fs.String("listen", "", "")
			fs.String("compat", "", "")
			fs.String("kafka-embedded", "", "")
			fs.String("hv-listen", "", "")
			fs.String("hv-monitor", "", "")
			fs.Bool("quiet", false, "")
			var got Child
			got.Declare(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("parsed %q into %+v, want %+v", c.args, got, c.want)
			}
			for _, name := range childFlags {
				if strings.Contains(fs.FlagUsages(), "--"+name) {
					t.Errorf("--%s shows in the usage", name)
				}
			}
		})
	}
}

// TestChildWatch checks that the context ends at stdin's end of file
// only with StopOnStdinEOF.
func TestChildWatch(t *testing.T) {
	for _, c := range []struct {
		name     string
		child    Child
		wantDone bool
	}{
		{"watching", Child{StopOnStdinEOF: true}, true},
		{"not watching", Child{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, w := io.Pipe()
			ctx, release := c.child.Watch(context.Background(), r)
			defer release()
			select {
			case <-ctx.Done():
				t.Fatal("the context ended before stdin did")
			case <-time.After(20 * time.Millisecond):
			}
			_ = w.Close()
			wait := 2 * time.Second // long enough for a loaded machine
			if !c.wantDone {
				wait = 100 * time.Millisecond
			}
			select {
			case <-ctx.Done():
				if !c.wantDone {
					t.Error("the context ended at end of file without StopOnStdinEOF")
				}
			case <-time.After(wait):
				if c.wantDone {
					t.Error("the context did not end at end of file")
				}
			}
		})
	}
}

// TestChildPrint checks the announced line: one JSON line Start reads
// back, with the process id, and nothing without Announce.
func TestChildPrint(t *testing.T) {
	a := Addrs{URL: "http://127.0.0.1:1", HV: "127.0.0.1:2", HVMonitor: "127.0.0.1:3", Kafka: "127.0.0.1:4", Seed: 9}
	for _, c := range []struct {
		name  string
		child Child
		want  string
	}{
		{"announce", Child{Announce: true}, `{"pid":42,"url":"http://127.0.0.1:1","hv":"127.0.0.1:2","hv_monitor":"127.0.0.1:3","kafka":"127.0.0.1:4","seed":9}` + "\n"},
		{"quiet", Child{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			c.child.Print(&out, a, 42)
			if out.String() != c.want {
				t.Fatalf("printed %q, want %q", out.String(), c.want)
			}
			if c.want == "" {
				return
			}
			var back Addrs
			if err := back.parse(bytes.TrimSpace(out.Bytes())); err != nil || back.PID != 42 || back.URL != a.URL {
				t.Errorf("read back %+v, %v", back, err)
			}
		})
	}
}
