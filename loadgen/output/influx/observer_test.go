package influx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// TestObserverFinish: the observer feeds the writer from the engine's
// events, and Finish records in the result what reached InfluxDB, with a
// warning only when batches were lost.
func TestObserverFinish(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		status  int
		batches int64
		warning string
	}{
		{"written", http.StatusNoContent, 4, ""},
		{"refused", http.StatusNotFound, 0, "InfluxDB: 4 of 4 batches were not written"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(&sink{status: tt.status})
			t.Cleanup(srv.Close)
			o := &Observer{W: newTestWriter(t, srv.URL+"/write?db=jmeter", nil)}
			o.Begin(time.Now())
			o.Timeline(result.Second{T: 0}, second(ok(time.Millisecond, 1000, 20)))
			o.Second(&engine.Progress{InFlight: 1, OK: 1})
			var res result.Result
			o.Finish(&res, 5*time.Second)
			if res.Influx == nil || res.Influx.Batches != tt.batches || !strings.Contains(res.Influx.URL, srv.URL) {
				t.Fatalf("influx section %+v, want %d batches written to %s", res.Influx, tt.batches, srv.URL)
			}
			if got := strings.Join(res.Warnings, "\n"); (tt.warning == "") != (got == "") || !strings.Contains(got, tt.warning) {
				t.Errorf("warnings %q, want %q", got, tt.warning)
			}
		})
	}
}
