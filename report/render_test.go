package report

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/junit"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/summary"
)

// failWriter fails every write, to check that renderers report it.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRenderersReportWriteErrorsAndNil(t *testing.T) {
	t.Parallel()
	renderers := map[string]func(w *failWriter, r *result.Result) error{
		"text":     func(w *failWriter, r *result.Result) error { return summary.Text(w, r, summary.Options{}) },
		"markdown": func(w *failWriter, r *result.Result) error { return Markdown(w, r) },
		"table":    func(w *failWriter, r *result.Result) error { return MarkdownTable(w, []*result.Result{r}, nil) },
		"junit":    func(w *failWriter, r *result.Result) error { return JUnit(w, r) },
		"csv":      func(w *failWriter, r *result.Result) error { return CSV(w, r) },
		"encode":   func(w *failWriter, r *result.Result) error { return resultfile.Encode(w, r) },
	}
	for name, render := range renderers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := render(&failWriter{}, sampleResult(t)); err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("write error = %v, want it reported", err)
			}
			if err := render(&failWriter{}, nil); err == nil {
				t.Errorf("nil result accepted")
			}
		})
	}
}

func TestRenderersHideURLPasswords(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	r.Target.Source = "metrics:https://admin:t0ken@collector:8443/actuator/prometheus"
	var b bytes.Buffer
	if err := summary.Text(&b, r, summary.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := JUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"s3cr3t", "t0ken"} {
		if strings.Contains(b.String(), secret) {
			t.Errorf("output shows the password %q", secret)
		}
	}
	if !strings.Contains(b.String(), "sample1:xxxxx@collector.example") {
		t.Errorf("redacted URL missing from the output")
	}
}

func TestTextStates(t *testing.T) {
	t.Parallel()
	broken := sampleResult(t)
	broken.Requests.NotSent = 0
	interrupted := sampleResult(t)
	interrupted.Interrupted = true
	badHist := sampleResult(t)
	badHist.Histograms.Latency = "garbage"
	noHist := sampleResult(t)
	noHist.Histograms = result.Histograms{}
	labelled := sampleResult(t)
	labelled.Config.Labels = map[string]string{"commit": "abc123", "build": "1.9.1"}
	tests := []struct {
		name    string
		r       *result.Result
		want    []string
		notWant []string
	}{
		{"accounting broken", broken, []string{"WARNING: request accounting does not add up: scheduled 10010 != sent 10000 + pool_exhausted 5 + not_sent 0 (+5 unaccounted)"}, []string{"accounting: scheduled"}},
		{"interrupted", interrupted, []string{"ran 1m40s of 1m40s, INTERRUPTED"}, []string{"completed"}},
		{"unreadable histogram", badHist, []string{"the latency histogram is unreadable", "p99.99 n/a 85.06"}, []string{"Latency histogram"}},
		{"no histograms", noHist, []string{"p99.999 n/a n/a max 112.58 87.55", "p99.9 87.81 62.53 25.28"}, []string{"Latency histogram", "unreadable"}},
		{"labelled", labelled, []string{"labels build=1.9.1, commit=abc123"}, nil},
		{"not saturated", emptyResult(), []string{"Target: not sampled", "no latency recorded", "Errors: none"}, []string{"WARNING", "Thresholds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := summary.Text(&b, tc.r, summary.Options{}); err != nil {
				t.Fatal(err)
			}
			// Compare with runs of spaces and line breaks folded, so that
			// column widths and wrapping do not matter here (the golden
			// files pin the layout).
			flat := strings.Join(strings.Fields(b.String()), " ")
			for _, w := range tc.want {
				if !strings.Contains(flat, w) {
					t.Errorf("text lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(b.String(), w) {
					t.Errorf("text holds %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestMarkdownSaysBrokenConnections: an HV-VES run's Markdown says how
// many written messages went into connections that then broke, beside the
// table whose written count holds them; a run with none says nothing.
func TestMarkdownSaysBrokenConnections(t *testing.T) {
	t.Parallel()
	for _, n := range []int64{0, 37} {
		r := reporttest.HV(t)
		r.HV.WrittenIntoBroken = n
		var b bytes.Buffer
		if err := Markdown(&b, r); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(b.String(), "37 of the written messages went into connections that then broke")
		if said != (n > 0) || (n == 0) == strings.Contains(b.String(), "Note:") {
			t.Errorf("%d written into broken connections: said %v in\n%s", n, said, b.String())
		}
	}
}

func TestMarkdownTableNameCount(t *testing.T) {
	t.Parallel()
	err := MarkdownTable(&bytes.Buffer{}, []*result.Result{sampleResult(t), sampleResult(t)}, []string{"one"})
	if err == nil || !strings.Contains(err.Error(), "2 results but 1 names") {
		t.Errorf("MarkdownTable with too few names = %v", err)
	}
	err = MarkdownTable(&bytes.Buffer{}, []*result.Result{sampleResult(t), hvResult(t)}, nil)
	if err == nil || !strings.Contains(err.Error(), "different columns") {
		t.Errorf("MarkdownTable of a REST and an HV-VES run = %v", err)
	}
	err = MarkdownTable(&bytes.Buffer{}, []*result.Result{sampleResult(t), nil}, nil)
	if err == nil || !strings.Contains(err.Error(), "result 2 is missing") {
		t.Errorf("MarkdownTable with a nil result = %v", err)
	}
}

func TestJUnitParses(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JUnit(&b, sampleResult(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []junit.Suite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit output is not XML: %v", err)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "vesload" {
		t.Fatalf("want one suite named vesload, got %+v", doc.Suites)
	}
	s := doc.Suites[0]
	if s.Tests != 5 || s.Failures != 2 || len(s.Cases) != 5 {
		t.Errorf("tests %d failures %d cases %d, want 5, 2, 5", s.Tests, s.Failures, len(s.Cases))
	}
	if s.Cases[0].Name != "run completed" || s.Cases[0].Failure != nil {
		t.Errorf("first case %+v, want the run completed", s.Cases[0])
	}
	if s.Cases[2].Name != "error_rate<0.1%" || s.Cases[2].Failure == nil || !strings.Contains(s.Cases[2].Failure.Message, "1.25%") {
		t.Errorf("failed gate not reported with its value: %+v", s.Cases[2])
	}
	if s.Cases[1].Failure != nil {
		t.Errorf("passing gate has a failure: %+v", s.Cases[1])
	}
}

func TestJUnitWithoutThresholds(t *testing.T) {
	t.Parallel()
	for _, interrupted := range []bool{false, true} {
		r := sampleResult(t)
		r.Thresholds = nil
		r.Interrupted = interrupted
		var b bytes.Buffer
		if err := JUnit(&b, r); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Suites []junit.Suite `xml:"testsuite"`
		}
		if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		cases := doc.Suites[0].Cases
		if len(cases) != 1 || cases[0].Name != "run completed" {
			t.Fatalf("want the single testcase \"run completed\", got %+v", cases)
		}
		if failed := cases[0].Failure != nil; failed != interrupted {
			t.Errorf("interrupted=%v: testcase failed=%v", interrupted, failed)
		}
	}
}

func TestCSVShape(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	var b bytes.Buffer
	if err := CSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v", err)
	}
	if len(rows) != len(r.Timeline)+1 {
		t.Fatalf("%d rows, want a header and %d seconds", len(rows), len(r.Timeline))
	}
	if rows[0][len(rows[0])-1] != "errors.pool_exhausted" {
		t.Errorf("last column %q, want errors.pool_exhausted", rows[0][len(rows[0])-1])
	}
	if rows[2][13] != "8" {
		t.Errorf("errors.http_503 at t=1 is %q, want 8", rows[2][13])
	}
	r.Target = nil
	b.Reset()
	if err := CSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(&b).ReadAll()
	if rows[1][9] != "" || rows[1][10] != "" {
		t.Errorf("target columns %q %q, want empty when the target was not sampled", rows[1][9], rows[1][10])
	}
}

func TestErrorRateAndAccounting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		req      result.Requests
		errs     map[string]int64
		rate     float64
		rateOK   bool
		balanced bool
	}{
		{"nothing", result.Requests{}, nil, 0, false, true},
		{"clean", result.Requests{Scheduled: 100, Sent: 100, OK: 100}, nil, 0, true, true},
		{"pool exhausted", result.Requests{Scheduled: 100, Sent: 90, OK: 85, Errors: 15, NotSent: 0}, map[string]int64{"pool_exhausted": 10, "http_503": 5}, 15, true, true},
		{"cut off", result.Requests{Scheduled: 100, Sent: 50, OK: 50, NotSent: 50}, nil, 0, true, true},
		{"all cut off", result.Requests{Scheduled: 10, NotSent: 10}, nil, 0, false, true},
		{"lost requests", result.Requests{Scheduled: 100, Sent: 90, OK: 90}, nil, 0, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &result.Result{Requests: tc.req, Errors: tc.errs}
			rate, ok := r.ErrorRatePct()
			if ok != tc.rateOK || rate != tc.rate {
				t.Errorf("ErrorRatePct = %v, %v; want %v, %v", rate, ok, tc.rate, tc.rateOK)
			}
			if err := r.AccountingError(); (err == nil) != tc.balanced {
				t.Errorf("AccountingError = %v, want balanced=%v", err, tc.balanced)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	got := format.Wrap("aaa bbb ccc dddddddddd e", 7)
	want := []string{"aaa bbb", "ccc", "dddddddddd", "e"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

func TestFmtBytes(t *testing.T) {
	t.Parallel()
	tests := map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 512 << 20: "512.0 MiB", 3 << 30: "3.0 GiB"}
	for n, want := range tests {
		if got := format.Bytes(n); got != want {
			t.Errorf("format.Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// hostile are strings a result file may carry that a terminal would obey:
// a colour, a screen clear, a bell, a right-to-left override and isolate,
// a C1 CSI (raw and as a rune), DEL.
var hostile = []string{"\x1b[31m", "\x1b[2J", "\a", "\u202e", "\u2066", "\x9b", "\u009b", "\x7f"}

// TestRenderersEscapeHostileText: labels, names, warnings and sources
// read from a result reach the text and Markdown renderings escaped; the
// summary's own colours are the only escape codes it writes.
func TestRenderersEscapeHostileText(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	evil := "x" + strings.Join(hostile, "y")
	r.Tool.Name = "vesload" + evil
	r.Config.Labels = map[string]string{"build" + evil: evil}
	r.Config.Profile = "p" + evil
	r.Config.Event = "e" + evil
	r.Warnings = append(r.Warnings, "w"+evil)
	r.Errors["c"+evil] = 1
	r.MessageIDs["m"+evil] = 1
	r.Target.Source = "s" + evil
	r.Target.LastError = "l" + evil
	r.Thresholds[0].Expr = "t" + evil
	r.AbortedBy = "a" + evil
	colours := strings.NewReplacer(ansiRed, "", ansiGreen, "", ansiYellow, "", ansiBold, "", ansiReset, "")
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return summary.Text(b, r, summary.Options{}) },
		"colour":   func(b *bytes.Buffer) error { return summary.Text(b, r, summary.Options{Color: true}) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, r) },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := colours.Replace(b.String())
		if c, ok := reporttest.TerminalSafe(out); !ok {
			t.Errorf("%s rendering writes %U raw:\n%s", name, c, out)
		}
		if !strings.Contains(out, `\x1b`) || !strings.Contains(out, `\u202e`) {
			t.Errorf("%s rendering does not show the escaped text:\n%s", name, out)
		}
	}
}

// The summary's colour codes (report/summary), the only escape codes a
// rendering may write itself.
const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)
