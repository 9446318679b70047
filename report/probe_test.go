package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestWriteProbe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    result.Probe
		want []string // lines, in order
	}{
		{"nothing measured", result.Probe{Target: "x:1", Address: "10.0.0.1:1"},
			[]string{"probe x:1 (10.0.0.1:1)"}},
		{"tcp only", result.Probe{Target: "x:1", Address: "10.0.0.1:1", ConnectMs: []float64{1, 2, 3}, ConnectMedianMs: 2},
			[]string{"probe x:1 (10.0.0.1:1)", "  tcp connect    median 2.000 ms over 3 connections"}},
		{"every step", result.Probe{Target: "https://h/x", Address: "10.0.0.2:443", ConnectMs: []float64{0.5}, ConnectMedianMs: 0.5,
			TLSHandshakeMs: 1.25, TLSVersion: "TLS 1.3", HTTPStatus: 200, RoundTripMs: 0.75,
			Bulk: &result.ProbeBulk{Sink: "http://s/sink", Bytes: 2 << 20, Seconds: 0.5, MBps: 4.2}},
			[]string{"probe https://h/x (10.0.0.2:443)", "  tcp connect    median 0.500 ms over 1 connections",
				"  tls handshake  1.250 ms (TLS 1.3)", "  http round trip 0.750 ms (status 200)",
				"  bulk to sink   4.2 MB/s (2 MiB in 0.500 s to http://s/sink)"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteProbe(&b, &tt.r); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestWriteProbeJSON(t *testing.T) {
	t.Parallel()
	in := result.Probe{Target: "x:1", Address: "a:1", ConnectMs: []float64{1.5}, ConnectMedianMs: 1.5, HTTPStatus: 202}
	var b bytes.Buffer
	if err := WriteProbeJSON(&b, &in); err != nil {
		t.Fatal(err)
	}
	var out result.Probe
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out.Target != in.Target || out.HTTPStatus != 202 || out.ConnectMedianMs != 1.5 {
		t.Fatalf("%v: %+v from %s", err, out, b.String())
	}
	if !strings.Contains(b.String(), "\n  \"target\"") {
		t.Errorf("want an indented document, got %s", b.String())
	}
	if err := WriteProbeJSON(&failWriter{}, &in); err == nil {
		t.Error("a failing writer: want an error")
	}
	if err := WriteProbe(&failWriter{}, &in); err == nil {
		t.Error("WriteProbe to a failing writer: want an error")
	}
}

// TestWriteProbeAs checks that --json picks the JSON document and its
// absence the text lines.
func TestWriteProbeAs(t *testing.T) {
	t.Parallel()
	in := result.Probe{Target: "x:1", Address: "a:1", ConnectMs: []float64{1.5}, ConnectMedianMs: 1.5}
	for _, c := range []struct {
		asJSON bool
		prefix string
	}{{false, "probe x:1 (a:1)\n"}, {true, "{\n  \"target\": \"x:1\""}} {
		var b bytes.Buffer
		if err := WriteProbeAs(&b, &in, c.asJSON); err != nil || !strings.HasPrefix(b.String(), c.prefix) {
			t.Errorf("asJSON %v: %v, wrote %q, want it to start %q", c.asJSON, err, b.String(), c.prefix)
		}
	}
}
