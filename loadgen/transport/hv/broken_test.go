package hv

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/summary"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// TestWrittenIntoBrokenConnections restarts the HV-VES emulator mid-run,
// as a collector restarts: the messages the producer wrote into the
// connection the restart broke were written as far as the producer can
// tell, and may or may not have arrived. They are counted, within what was
// written, and the summary says so, with no receiver observed to tell.
func TestWrittenIntoBrokenConnections(t *testing.T) {
	first, err := hvemu.Start(hvemu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	addr := first.Addr()
	restarted := make(chan *hvemu.Server, 1)
	seen := &outcomes{hit: func(ok int64) {
		if ok == 300 {
			go func() { // not on the recording goroutine
				first.Close()
				s, err := hvemu.Start(hvemu.Options{Addr: addr})
				if err != nil {
					t.Errorf("restart the emulator on %s: %v", addr, err)
				}
				restarted <- s
			}()
		}
	}}
	cfg := Config{Addr: addr, Producers: 1, Messages: 1500, Size: 1024, Interval: time.Millisecond, RunID: "br",
		DialTimeout: 200 * time.Millisecond}
	r, err := run(context.Background(), cfg, seen)
	if err != nil {
		t.Fatal(err)
	}
	if s := <-restarted; s != nil {
		defer s.Close()
	}
	checkAccounting(t, r, 1500)
	hv := r.HV
	if hv.WrittenIntoBroken < 300 || hv.WrittenIntoBroken > hv.Sent.Written || hv.Sent.Failed == 0 {
		t.Errorf("written into broken connections %d, counts %+v: want at least the 300 written before the restart, within the written",
			hv.WrittenIntoBroken, hv.Sent)
	}
	var b bytes.Buffer
	if err := summary.Text(&b, r, summary.Options{}); err != nil {
		t.Fatal(err)
	}
	want := " of the written messages went into connections that then broke (a later write failed): " +
		"the kernel took them, the collector may or may not have read them; no receiver was observed to tell"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the summary does not say %q:\n%s", want, b.String())
	}
}
