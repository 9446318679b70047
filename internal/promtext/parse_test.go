package promtext

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// key names one sample for comparisons: its name and its labels sorted,
// with le and quantile values normalised as numbers.
func key(name string, labels []Label) string {
	ls := slices.Clone(labels)
	slices.SortFunc(ls, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	b.WriteString(name)
	for _, l := range ls {
		v := l.Value
		if l.Name == "le" || l.Name == "quantile" {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = string(FormatFloat(nil, f))
			}
		}
		fmt.Fprintf(&b, ",%s=%q", l.Name, v)
	}
	return b.String()
}

// flatten turns expfmt's families into samples by key.
func flatten(fams map[string]*dto.MetricFamily) map[string]float64 {
	out := map[string]float64{}
	for name, mf := range fams {
		for _, m := range mf.GetMetric() {
			var ls []Label
			for _, l := range m.GetLabel() {
				ls = append(ls, Label{l.GetName(), l.GetValue()})
			}
			with := func(extra Label) []Label { return append(slices.Clone(ls), extra) }
			switch {
			case m.GetCounter() != nil:
				out[key(name, ls)] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[key(name, ls)] = m.GetGauge().GetValue()
			case m.GetUntyped() != nil:
				out[key(name, ls)] = m.GetUntyped().GetValue()
			case m.GetSummary() != nil:
				s := m.GetSummary()
				for _, q := range s.GetQuantile() {
					out[key(name, with(Label{"quantile", strconv.FormatFloat(q.GetQuantile(), 'g', -1, 64)}))] = q.GetValue()
				}
				out[key(name+"_sum", ls)] = s.GetSampleSum()
				out[key(name+"_count", ls)] = float64(s.GetSampleCount())
			case m.GetHistogram() != nil:
				h := m.GetHistogram()
				for _, b := range h.GetBucket() {
					out[key(name+"_bucket", with(Label{"le", strconv.FormatFloat(b.GetUpperBound(), 'g', -1, 64)}))] = float64(b.GetCumulativeCount())
				}
				out[key(name+"_sum", ls)] = h.GetSampleSum()
				out[key(name+"_count", ls)] = float64(h.GetSampleCount())
			}
		}
	}
	return out
}

func expfmtSamples(t *testing.T, body []byte) map[string]float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("expfmt: %v", err)
	}
	return flatten(fams)
}

func ourSamples(t *testing.T, body []byte, f Format) map[string]float64 {
	t.Helper()
	samples, err := Parse(body, f)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	out := map[string]float64{}
	for _, s := range samples {
		k := key(s.Name, s.Labels)
		if _, dup := out[k]; dup {
			t.Errorf("sample %s twice", k)
		}
		out[k] = s.Value
	}
	return out
}

func sameValue(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b)
}

// TestParseAgreesWithExpfmt reads the testdata expositions (Micrometer as
// Spring Boot's actuator serves it, the HV-VES collector's, client_golang's
// and OpenMetrics without exemplars) with Parse and with expfmt's text
// parser, which vesload used before, and wants the same samples.
func TestParseAgreesWithExpfmt(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		file   string
		format Format
	}{
		{"micrometer.txt", Text},
		{"hvves.txt", Text},
		{"client_golang.txt", Text},
		{"openmetrics.txt", OpenMetrics},
	} {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			want, got := expfmtSamples(t, body), ourSamples(t, body, tt.format)
			if len(want) < 5 {
				t.Fatalf("expfmt read only %d samples", len(want))
			}
			for k, w := range want {
				if g, ok := got[k]; !ok || !sameValue(g, w) {
					t.Errorf("%s = %v (found %v), expfmt reads %v", k, g, ok, w)
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%s read, expfmt has no such sample", k)
				}
			}
		})
	}
}

func TestParseFamilies(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(filepath.Join("testdata", "openmetrics_exemplars.txt"))
	if err != nil {
		t.Fatal(err)
	}
	samples, err := Parse(body, OpenMetrics)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		family string
		typ    Type
		value  float64
		isVal  bool
	}
	want := map[string]got{
		`requests_total,code="200"`:                 {"requests", Counter, 1027, true},
		`requests_total,code="503"`:                 {"requests", Counter, 3, true},
		`requests_created,code="200"`:               {"requests", Counter, 1.7645e9, false},
		`build_info,revision="abc",version="1.2.3"`: {"build", Info, 1, false},
		`feature,feature="b"`:                       {"feature", StateSet, 0, false},
		`queue_size_bucket,le="+Inf"`:               {"queue_size", GaugeHistogram, 5, false},
		`queue_size_gsum`:                           {"queue_size", GaugeHistogram, 22, false},
		`up`:                                        {"up", Gauge, 1, true},
		`pressure,room="lab"`:                       {"pressure", Untyped, 1013.25, true},
	}
	seen := 0
	for _, s := range samples {
		k := key(s.Name, s.Labels)
		w, ok := want[k]
		if !ok {
			continue
		}
		seen++
		if s.Family != w.family || s.Type != w.typ || s.Value != w.value || s.IsValue() != w.isVal {
			t.Errorf("%s: family %s %s value %v IsValue %v, want %+v", k, s.Family, s.Type, s.Value, s.IsValue(), w)
		}
	}
	if seen != len(want) || len(samples) != 12 {
		t.Errorf("found %d of %d expected samples among %d, want 12", seen, len(want), len(samples))
	}
}

func TestParseText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       []Sample
	}{
		{"bare", "a 1\n", []Sample{{Name: "a", Value: 1, Family: "a"}}},
		{"no final line feed", "a 1", []Sample{{Name: "a", Value: 1, Family: "a"}}},
		{"trailing comma and blanks", "a{x=\"1\",} 2 \n", []Sample{{Name: "a", Labels: []Label{{"x", "1"}}, Value: 2, Family: "a"}}},
		{"blanks in braces", "a{ x = \"1\" , y=\"\" } 2\n",
			[]Sample{{Name: "a", Labels: []Label{{"x", "1"}, {"y", ""}}, Value: 2, Family: "a"}}},
		{"escapes", `a{x="q\"b\\n\n"} 1` + "\n", []Sample{{Name: "a", Labels: []Label{{"x", "q\"b\\n\n"}}, Value: 1, Family: "a"}}},
		{"quoted name", `{"my.metric", "la.bel"="v"} 3` + "\n",
			[]Sample{{Name: "my.metric", Labels: []Label{{"la.bel", "v"}}, Value: 3, Family: "my.metric"}}},
		{"timestamp", "a 1 -5\n", []Sample{{Name: "a", Value: 1, Family: "a"}}},
		{"counter _total is its own family", "# TYPE a counter\na_total 4\n", []Sample{{Name: "a_total", Value: 4, Family: "a_total"}}},
		{"colon names", "a:b:c 1\n", []Sample{{Name: "a:b:c", Value: 1, Family: "a:b:c"}}},
		{"unknown comment", "# foo bar\n#\n# TYPE\na 1\n", []Sample{{Name: "a", Value: 1, Family: "a"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		got, err := Parse([]byte(tt.body), Text)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !slices.EqualFunc(got, tt.want, func(a, b Sample) bool {
			return a.Name == b.Name && slices.Equal(a.Labels, b.Labels) && a.Value == b.Value && a.Family == b.Family && a.Type == b.Type
		}) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		format     Format
		want       string
	}{
		{"no value", "a\n", Text, "line 1: a: no value"},
		{"bad value", "a 1x\n", Text, `invalid value "1x"`},
		{"hex value", "a 0x10\n", Text, "invalid value"},
		{"out of range", "a 1e999\n", Text, "out of range"},
		{"bad timestamp", "a 1 1.5\n", Text, "timestamp"},
		{"junk after timestamp", "a 1 2 3\n", Text, "unexpected"},
		{"bad name", "1a 2\n", Text, "invalid metric name"},
		{"unclosed labels", "a{x=\"1\" 2\n", Text, "want , or }"},
		{"unterminated value", "a{x=\"1} 2\n", Text, "unterminated"},
		{"bad escape", `a{x="\t"} 2` + "\n", Text, `invalid escape \t`},
		{"duplicate label", `a{x="1",x="2"} 2` + "\n", Text, "given twice"},
		{"label without value", `a{x} 2` + "\n", Text, "want ="},
		{"unquoted label value", `a{x=1} 2` + "\n", Text, "quoted value"},
		{"second TYPE", "# TYPE a gauge\n# TYPE a gauge\n", Text, "second TYPE"},
		{"TYPE after samples", "a 1\n# TYPE a gauge\n", Text, "after its samples"},
		{"unknown type", "# TYPE a meter\n", Text, "unknown type"},
		{"OpenMetrics type in text", "# TYPE a info\n", Text, "unknown type"},
		{"bucket without le", "# TYPE h histogram\nh_bucket 1\n", Text, "without a le"},
		{"not UTF-8", "a{x=\"\xff\"} 1\n", Text, "not UTF-8"},
		{"exemplar in text", "a 1 # {x=\"1\"} 2\n", Text, "unexpected"},
		{"error names its line", "a 1\nb 2\nc\n", Text, "line 3"},
		{"content after EOF", "a 1\n# EOF\nb 2\n", OpenMetrics, "after # EOF"},
		{"empty line", "a 1\n\n# EOF\n", OpenMetrics, "empty line"},
		{"free comment", "# hello there\n# EOF\n", OpenMetrics, "only HELP"},
		{"bad exemplar", "a_total 1 # x\n# EOF\n", OpenMetrics, "exemplar"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.body), tt.format)
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one wrapping ErrSyntax with %q", tt.name, err, tt.want)
		}
	}
}

func TestFormatOf(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]Format{
		"application/openmetrics-text; version=1.0.0; charset=utf-8": OpenMetrics,
		"Application/OpenMetrics-Text":                               OpenMetrics,
		"text/plain; version=0.0.4; charset=utf-8":                   Text,
		"":                 Text,
		"application/json": Text,
	} {
		if got := FormatOf(ct); got != want {
			t.Errorf("FormatOf(%q) = %v, want %v", ct, got, want)
		}
	}
}

// FuzzParse feeds arbitrary bodies to Parse in both formats: it must not
// panic, an error must wrap ErrSyntax, and what it accepts as text must
// read the same once written back by Writer.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"micrometer.txt", "hvves.txt", "client_golang.txt", "openmetrics.txt", "openmetrics_exemplars.txt"} {
		body, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, name[:4] == "open")
	}
	f.Add([]byte("a{x=\"\\\"\"} NaN 1\n"), false)
	f.Add([]byte("{\"a.b\"} 1\n# EOF\n"), true)
	f.Fuzz(func(t *testing.T, body []byte, om bool) {
		format := Text
		if om {
			format = OpenMetrics
		}
		samples, err := Parse(body, format)
		if err != nil {
			if !errors.Is(err, ErrSyntax) || err.Error() == "" {
				t.Fatalf("error %v does not wrap ErrSyntax", err)
			}
			return
		}
		var w Writer
		for _, s := range samples {
			if !validMetricName(s.Name) || slices.ContainsFunc(s.Labels, func(l Label) bool { return !validLabelName(l.Name) }) {
				return // quoted names: Writer writes the classic form only
			}
			w.Sample(s.Name, s.Labels, s.Value)
		}
		again, err := Parse(w.Bytes(), Text)
		if err != nil {
			t.Fatalf("reading back %q: %v", w.Bytes(), err)
		}
		if len(again) != len(samples) {
			t.Fatalf("%d samples read back, want %d", len(again), len(samples))
		}
		for i := range again {
			a, b := again[i], samples[i]
			if a.Name != b.Name || !slices.Equal(a.Labels, b.Labels) || !sameValue(a.Value, b.Value) {
				t.Fatalf("sample %d read back as %+v, want %+v", i, a, b)
			}
		}
	})
}

func validLabelName(s string) bool {
	return validMetricName(s) && !strings.Contains(s, ":")
}
