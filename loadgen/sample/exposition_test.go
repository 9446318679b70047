package sample

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// expfmtSums is what vesload read from an exposition when it used
// expfmt's text parser: for every family, the sum of its counter, gauge
// and untyped values, and whether it had any.
func expfmtSums(t *testing.T, body []byte) map[string]float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("expfmt: %v", err)
	}
	out := map[string]float64{}
	for name, mf := range fams {
		var total float64
		found := false
		for _, m := range mf.GetMetric() {
			switch {
			case m.GetGauge() != nil:
				total += m.GetGauge().GetValue()
			case m.GetCounter() != nil:
				total += m.GetCounter().GetValue()
			case m.GetUntyped() != nil:
				total += m.GetUntyped().GetValue()
			default:
				continue
			}
			found = true
		}
		if found {
			out[name] = total
		}
	}
	return out
}

// TestExpositionAgreesWithExpfmt reads Micrometer's actuator text, the
// HV-VES collector's and client_golang's expositions with parseExposition
// and with expfmt, and wants the same sum for every family name, the
// recognised series among them.
func TestExpositionAgreesWithExpfmt(t *testing.T) {
	t.Parallel()
	bodies := map[string][]byte{"micrometer const": []byte(micrometer)}
	for _, name := range []string{"micrometer.txt", "hvves.txt", "client_golang.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		bodies[name] = b
	}
	for name, body := range bodies {
		want := expfmtSums(t, body)
		fams, err := parseExposition("text/plain; version=0.0.4", body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(fams) != len(want) {
			t.Errorf("%s: %d families with values, expfmt %d", name, len(fams), len(want))
		}
		for fam, w := range want {
			got, ok := fams.sum(fam)
			if !finite(w) {
				continue // sum skips what is not finite, as it did before
			}
			if !ok || got != w {
				t.Errorf("%s: sum(%s) = %v (%v), expfmt gives %v", name, fam, got, ok, w)
			}
		}
	}
}

// TestCheckFrames: a delimited protobuf body whose length prefix claims
// more than is left is refused before expfmt sizes a buffer by it.
func TestCheckFrames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		ok   bool
	}{
		{"empty", "", true},
		{"two whole frames", "\x02ab\x01c", true},
		{"claims gigabytes", "\xff\xff\xff\xff\x0f\x0a", false},
		{"claims one byte too many", "\x03ab", false},
		{"broken length", "\xff", false},
	}
	for _, tt := range tests {
		if err := checkFrames([]byte(tt.body)); (err == nil) != tt.ok {
			t.Errorf("%s: error %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
