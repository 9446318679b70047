package summary

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"

	goldenfile "github.com/vesload/vesload/internal/golden"
)

func TestHVTextGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Text(&b, hvResult(t), Options{}); err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, filepath.Join("testdata", "text_hv.golden"), b.Bytes())
}

func TestHVRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "hv.json")
	if err := resultfile.Write(path, hvResult(t)); err != nil {
		t.Fatal(err)
	}
	back, err := resultfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.HV == nil || back.HV.Receiver == nil || back.HV.Receiver.Lost != 1 || back.Config.Protocol != "hv-ves" ||
		len(back.HV.ByProducer) != 2 || back.HV.ByProducer[1].Reconnects != 1 {
		t.Errorf("read back %+v", back.HV)
	}
}

// TestHVTextHasNoRESTUnsentLine: the REST "events ... unsent
// (pool_exhausted + not_sent)" line would misname an HV-VES run's
// disconnected messages; the HV-VES section says it instead.
func TestHVTextHasNoRESTUnsentLine(t *testing.T) {
	t.Parallel()
	r := hvResult(t)
	r.Timeline = []result.Second{{T: 0, Sent: 100, OK: 100, BytesSent: 820_400}}
	var b bytes.Buffer
	if err := Text(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.Contains(got, "unsent (pool_exhausted + not_sent)") || !strings.Contains(got, "not sent by reason: disconnected=10") {
		t.Errorf("summary:\n%s", got)
	}
}

// A receiver that counted more than the run wrote (one shard of several
// against one collector) shows no negative count anywhere: lost 0, and
// how many more it counted.
func TestHVTextReceiverAboveWritten(t *testing.T) {
	t.Parallel()
	r := hvResult(t)
	r.HV.Receiver.Received, r.HV.Receiver.Lost, r.HV.Receiver.Extra = 2988, 0, 999
	var b bytes.Buffer
	if err := Text(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if regexp.MustCompile(`[ |(]-[0-9]`).MatchString(out) {
		t.Errorf("a negative count:\n%s", out)
	}
	for _, w := range []string{"received 2988 (999 more than this run wrote: traffic from elsewhere), accepted 1988, lost 0", "0 (999 extra)"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
}
