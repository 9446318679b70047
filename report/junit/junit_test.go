package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// Write counts the tests and failures from the cases, on the suite and on
// the document, whatever the caller set, and the output reads back.
func TestWriteCounts(t *testing.T) {
	t.Parallel()
	s := Suite{Name: "gates", Time: "1.500", Tests: 99, Failures: 99, Cases: []Case{
		{Name: "p99<500ms", Classname: "vesload.thresholds", Time: "0"},
		{Name: "error_rate<1%", Classname: "vesload.thresholds", Time: "0",
			Failure: &Failure{Message: "error_rate<1%: measured 2 %", Type: "threshold", Text: "value: 2\n"}},
	}}
	var b bytes.Buffer
	if err := Write(&b, "vesload", s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), xml.Header) {
		t.Errorf("no XML header: %q", b.String()[:40])
	}
	var doc struct {
		Name     string  `xml:"name,attr"`
		Tests    int     `xml:"tests,attr"`
		Failures int     `xml:"failures,attr"`
		Time     string  `xml:"time,attr"`
		Suites   []Suite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Name != "vesload" || doc.Tests != 2 || doc.Failures != 1 || doc.Time != "1.500" || len(doc.Suites) != 1 {
		t.Fatalf("document %+v", doc)
	}
	got := doc.Suites[0]
	if got.Tests != 2 || got.Failures != 1 || got.Cases[1].Failure == nil || got.Cases[1].Failure.Type != "threshold" {
		t.Errorf("suite %+v", got)
	}
}
