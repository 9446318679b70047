package html

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// abRuns are three runs of a build and three of a 30% slower one.
func abRuns(t testing.TB) (a, b []*result.Result) {
	t.Helper()
	a = []*result.Result{synthRun(t, 10, 1, 20), synthRun(t, 10.3, 2, 20), synthRun(t, 9.8, 3, 20)}
	b = []*result.Result{synthRun(t, 13, 4, 20), synthRun(t, 13.3, 5, 20), synthRun(t, 12.8, 6, 20)}
	return a, b
}

func renderComparison(t *testing.T, a, b []*result.Result) string {
	t.Helper()
	c, err := compare.Compare(a, b, compare.Options{NameA: "dmaap", NameB: "cambria", LabelsA: []string{"a1.json", "a2.json", "a3.json"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Comparison(&buf, c, a, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestComparisonStructure(t *testing.T) {
	t.Parallel()
	a, b := abRuns(t)
	page := renderComparison(t, a, b)
	charts := pageCharts(t, page)
	want := []string{"Latency percentile spectra", "p99 latency per second", "Achieved rate per second"}
	if got := titles(charts); !slices.Equal(got, want) {
		t.Errorf("charts %q, want %q", got, want)
	}
	checkSelfContained(t, page)
	if !strings.Contains(page, "No run had errors.") {
		t.Error("no word on the errors chart of runs without errors")
	}
	// Each side's merged spectrum is drawn over its runs' own.
	wantSpec := []string{"dmaap a1.json", "dmaap a2.json", "dmaap a3.json", "cambria run 1", "cambria run 2", "cambria run 3", "dmaap", "cambria"}
	if got := labels(charts[0]); !slices.Equal(got, wantSpec) {
		t.Errorf("spectra %q, want %q", got, wantSpec)
	}
	if got := labels(charts[1]); len(got) != 6 || got[0] != "dmaap a1.json" || got[5] != "cambria run 3" {
		t.Errorf("per-run p99 lines %q, want one per run", got)
	}
	for _, want := range []string{
		"A/B comparison: dmaap (3 runs) vs cambria (3 runs)", "Welch&#39;s t-test",
		"Latency percentile spectra", "p99 latency per second",
		`class="worse">`, // latency rows are significantly worse
		">a2.json<", ">cambria run 3<",
		"sample1:xxxxx@",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "s3cr3t") {
		t.Error("page leaks the URL password")
	}
	if page != renderComparison(t, a, b) {
		t.Error("comparison page is not deterministic")
	}
}

func TestComparisonSingleRuns(t *testing.T) {
	t.Parallel()
	a, b := abRuns(t)
	page := renderComparison(t, a[:1], b[:1])
	for _, want := range []string{"Distributions: latency, request by request", "cannot be judged from single runs"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := len(pageCharts(t, page)); n != 3 {
		t.Errorf("%d charts, want 3", n)
	}
}

func TestComparisonBadInput(t *testing.T) {
	t.Parallel()
	a, b := abRuns(t)
	c, err := compare.Compare(a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Comparison(new(bytes.Buffer), nil, a, b); err == nil {
		t.Error("nil comparison accepted")
	}
	if err := Comparison(new(bytes.Buffer), c, a, []*result.Result{nil}); err == nil {
		t.Error("nil run accepted")
	}
	// Runs without histograms or timelines still give a page.
	bare := func(rs []*result.Result) []*result.Result {
		out := make([]*result.Result, len(rs))
		for i, r := range rs {
			c := *r
			c.Histograms, c.Timeline = result.Histograms{}, nil
			out[i] = &c
		}
		return out
	}
	var buf bytes.Buffer
	if err := Comparison(&buf, c, bare(a), bare(b)); err != nil {
		t.Fatal(err)
	}
	if n := len(pageCharts(t, buf.String())); n != 0 || !strings.Contains(buf.String(), "no per-second timelines") {
		t.Errorf("bare runs: %d charts, want 0 and an explanation", n)
	}
}
