package transport_test

import (
	"testing"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/transporttest"
	"github.com/vesload/vesload/report/result"
)

func TestClassifyNet(t *testing.T) {
	t.Parallel()
	for _, c := range transporttest.NetErrors() {
		if got := transport.ClassifyNet(c.Err); got != c.Want {
			t.Errorf("%s: ClassifyNet(%v) = %s, want %s", c.Name, c.Err, got.Name(0), c.Want.Name(0))
		}
	}
	if got := transport.ClassifyNet(nil); got != transport.OK {
		t.Errorf("ClassifyNet(nil) = %s", got.Name(0))
	}
}

// TestClassNamesAreTheResults: every class is named by report/result's
// constants, the one list of error classes.
func TestClassNamesAreTheResults(t *testing.T) {
	t.Parallel()
	want := map[transport.Class]string{
		transport.OK: result.OutcomeOK, transport.Timeout: result.ClassTimeout, transport.Refused: result.ClassConnRefused,
		transport.Reset: result.ClassConnReset, transport.DNS: result.ClassDNS, transport.TLS: result.ClassTLS,
		transport.PoolExhausted: result.ClassPoolExhausted, transport.Aborted: result.ClassAborted,
		transport.TooLarge: result.ClassTooLarge, transport.BadAnswer: result.ClassBadResponse, transport.Other: result.ClassOther,
	}
	for c, name := range want {
		if got := c.Name(0); got != name {
			t.Errorf("class %d is named %q, want %q", c, got, name)
		}
	}
	if got := transport.HTTP.Name(503); got != result.HTTPClassPrefix+"503" {
		t.Errorf("HTTP 503 is named %q", got)
	}
}
