package result

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOutputSectionsKeepTheirShape: the influx section of a result
// written before the table of outputs reads and writes back byte for
// byte, and a result without other outputs has no written section; one
// with an output's writes carries them under written.
func TestOutputSectionsKeepTheirShape(t *testing.T) {
	t.Parallel()
	const influx = `{"url":"http://influx:8086/write?db=jmeter","batches":61,"points":730,"failed":1,"dropped":0,"last_error":"influx write: HTTP 500: x"}`
	for _, tt := range []struct {
		name string
		doc  string
		want []string
		not  []string
	}{
		{"influx alone", `{"influx":` + influx + `}`, []string{`"influx":` + influx}, []string{`"written"`}},
		{"written", `{"written":[{"output":"--remote-write-url","url":"http://p/api/v1/write","batches":3,"samples":27,"failed":0,"dropped":1}]}`,
			[]string{`"written":[{"output":"--remote-write-url","url":"http://p/api/v1/write","batches":3,"samples":27,"failed":0,"dropped":1}]`}, []string{`"influx"`}},
	} {
		var r Result
		if err := json.Unmarshal([]byte(tt.doc), &r); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", tt.name, b, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(string(b), n) {
				t.Errorf("%s: %s has %s", tt.name, b, n)
			}
		}
	}
}
