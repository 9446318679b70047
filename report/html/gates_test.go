package html

import (
	"bytes"
	stdhtml "html"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/compare"
)

func TestComparisonGates(t *testing.T) {
	t.Parallel()
	a, b := abRuns(t)
	gates, err := compare.ParseGates([]string{"p99<+10%", "p99<+90%"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := compare.Compare(a, b, compare.Options{NameA: "dmaap", NameB: "cambria", Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Comparison(&buf, c, a, b); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	checkSelfContained(t, page)
	gatesAt, chartsAt := strings.Index(page, `id="gates"`), strings.Index(page, `id="charts"`)
	if gatesAt < 0 || chartsAt < gatesAt {
		t.Fatalf("no gates section before the charts (at %d, charts at %d)", gatesAt, chartsAt)
	}
	section := stdhtml.UnescapeString(page[gatesAt:chartsAt])
	for _, want := range []string{
		"FAIL (1 of 2)", ">p99<+10%<", ">p99<+90%<", `class="fail">FAIL<`, `class="pass">PASS<`,
		"cambria vs dmaap: +", "tolerance +10%: beyond the tolerance and significant at alpha 0.05", ">+10%<",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("gates section lacks %q:\n%s", want, section)
		}
	}

	// Without gates, no section.
	c, err = compare.Compare(a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := Comparison(&buf, c, a, b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="gates"`) {
		t.Error("a comparison without gates has a gates section")
	}
}
