package merge

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/summary"
)

func TestMerge(t *testing.T) {
	t.Parallel()
	a := generator(t, 0, 1)             // 0.1 … 100 ms
	b := generator(t, 2*time.Second, 3) // 0.3 … 300 ms, started 2 s later
	b.Target.CPUAvgPct, b.Target.CPUMaxPct = 50, 99
	b.Generator.Saturated = false
	b.Timeline[1].P99Ms = 500
	// Second 2 of the merge holds a's second 2 and b's second 0: their
	// means, weighted by what each sent, are the mean of all its requests.
	a.Timeline[2].AvgMs, a.Timeline[2].P95Ms = 4, 6
	b.Timeline[0].AvgMs, b.Timeline[0].P95Ms, b.Timeline[0].Sent = 10, 9, 300
	a.Timeline[2].GenSchedP99Ms, b.Timeline[0].GenSchedP99Ms = 0.25, 7.5
	m, err := Results([]*result.Result{a, b}, []string{"g1.json", "g2.json"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests.Scheduled != 2*a.Requests.Scheduled || m.Requests.Sent != 2*a.Requests.Sent ||
		m.Errors["http_503"] != 160 || m.MessageIDs["SVC2000"] != 80 || m.Bytes.Sent != 2*a.Bytes.Sent {
		t.Errorf("counts not summed: requests %+v errors %v", m.Requests, m.Errors)
	}
	if err := m.AccountingError(); err != nil {
		t.Errorf("merged accounting: %v", err)
	}
	if m.RPS.Target != 200 || m.RPS.Achieved != 199.9 || m.Config.RPS != 200 || m.Config.Pool != 32 {
		t.Errorf("rates %+v config rps %v pool %d, want summed", m.RPS, m.Config.RPS, m.Config.Pool)
	}
	if !m.Started.Equal(a.Started) || !m.Ended.Equal(b.Ended) || m.DurationS != 102 {
		t.Errorf("window %v – %v (%vs), want a's start to b's end, 102 s", m.Started, m.Ended, m.DurationS)
	}
	// 2000 values: 1000 in 0.1–100 ms and 1000 in 0.3–300 ms.
	if m.Latency.Count != 2000 || m.Latency.Max < 299 || m.Latency.Max > 301 || m.Latency.Min > 0.11 {
		t.Errorf("merged latency %+v", m.Latency)
	}
	h, err := result.DecodeHistogram(m.Histograms.Latency)
	if err != nil || h.TotalCount() != 2000 {
		t.Fatalf("merged histogram: %v", err)
	}
	if m.Service.Count != 2*a.Service.Count {
		t.Errorf("service count %d, want %d", m.Service.Count, 2*a.Service.Count)
	}
	if m.Target.CPUMaxPct != 99 || m.Target.CPUAvgPct != (42.5+50)/2 || m.Target.Source != "pid:4242" {
		t.Errorf("target %+v", m.Target)
	}
	if !m.Generator.Saturated || m.Generator.MaxInFlight != 32 {
		t.Errorf("generator %+v, want saturated (a was) and 32 in flight", m.Generator)
	}
	if len(m.Thresholds) != 0 || len(m.Config.Thresholds) != 3 {
		t.Errorf("thresholds %v config %v: outcomes must be dropped, expressions kept", m.Thresholds, m.Config.Thresholds)
	}
	// Timelines on the wall clock: b's second 0 is a's second 2.
	if len(m.Timeline) != 5 {
		t.Fatalf("timeline has %d seconds, want 5 (0–2 and b's 2–4)", len(m.Timeline))
	}
	s2 := m.Timeline[2]
	if s2.T != 2 || s2.Sent != a.Timeline[2].Sent+b.Timeline[0].Sent || s2.ErrorsByClass["http_500"] != 1 || s2.GenSchedP99Ms != 7.5 {
		t.Errorf("second 2 = %+v", s2)
	}
	if m.Timeline[3].P99Ms != 500 || m.Timeline[1].Sent != a.Timeline[1].Sent {
		t.Errorf("seconds 1 and 3: %+v %+v", m.Timeline[1], m.Timeline[3])
	}
	if got := m.Timeline[2].P50Ms; got < 3.1 || got > 3.2 {
		t.Errorf("second 2 p50 %v, want the sent-weighted mean of 3.2 and 3.1", got)
	}
	sa, sb := float64(a.Timeline[2].Sent), float64(b.Timeline[0].Sent)
	if want := math.Round((4*sa+10*sb)/(sa+sb)*1000) / 1000; sa == sb || m.Timeline[2].AvgMs != want || m.Timeline[2].P95Ms != 9 {
		t.Errorf("second 2 mean %v p95 %v, want %v (weighted by %v and %v sent) and 9", m.Timeline[2].AvgMs, m.Timeline[2].P95Ms, want, sa, sb)
	}
	warns := strings.Join(m.Warnings, "\n")
	if !strings.Contains(warns, "g2.json: the generator was saturated") || !strings.Contains(warns, "merged from 2 generators") {
		t.Errorf("warnings %q", m.Warnings)
	}
	// The inputs are untouched.
	if a.Requests.Sent != 10000 || a.Config.RPS != 100 {
		t.Error("Merge changed its input")
	}
}

func TestMergeOne(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	m, err := Results([]*result.Result{r}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests != r.Requests || m.Latency != r.Latency || m.Service != r.Service || len(m.Timeline) != len(r.Timeline) {
		t.Errorf("merging one result changed it: %+v vs %+v", m.Requests, r.Requests)
	}
	if len(m.Warnings) != len(r.Warnings) {
		t.Errorf("warnings %q", m.Warnings)
	}
}

func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	later := sampleResult(t)
	later.Started = later.Started.Add(time.Hour)
	later.Ended = later.Ended.Add(time.Hour)
	noHist := sampleResult(t)
	noHist.Histograms.Latency = ""
	badHist := sampleResult(t)
	badHist.Histograms.Service = "garbage"
	tests := []struct {
		name  string
		rs    []*result.Result
		names []string
		want  string
	}{
		{"none", nil, nil, "no results"},
		{"nil", []*result.Result{sampleResult(t), nil}, nil, "result 2 is missing"},
		{"names", []*result.Result{sampleResult(t)}, []string{"a", "b"}, "1 results but 2 names"},
		{"sequential", []*result.Result{sampleResult(t), later}, []string{"a.json", "b.json"}, "b.json ran 2025-03-04 11:00:00Z"},
		{"no histogram", []*result.Result{sampleResult(t), noHist}, nil, "result 2 has 10000 latency values but no latency histogram"},
		{"bad histogram", []*result.Result{sampleResult(t), badHist}, nil, "result 2: histograms.service: decode histogram"},
	}
	for _, tc := range tests {
		_, err := Results(tc.rs, tc.names)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.name, err, tc.want)
		}
	}
}

func TestMergeEmptyResults(t *testing.T) {
	t.Parallel()
	m, err := Results([]*result.Result{emptyResult(), emptyResult()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Histograms.Latency != "" || m.Latency.Count != 0 || m.Target != nil || len(m.Timeline) != 0 {
		t.Errorf("merge of empty results: %+v", m)
	}
}

// FuzzMerge merges any document Decode accepts with itself: Merge must
// not panic, and when it succeeds the counts are doubled and the result
// encodes to a document Decode accepts again.
func FuzzMerge(f *testing.F) {
	for _, r := range []*result.Result{sampleResult(f), emptyResult()} {
		var b strings.Builder
		if err := resultfile.Encode(&b, r); err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(b.String()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := resultfile.Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			return
		}
		m, err := Results([]*result.Result{r, r}, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if r.Requests.Sent < 1<<61 && m.Requests.Sent != 2*r.Requests.Sent {
			t.Fatalf("sent %d, want 2 × %d", m.Requests.Sent, r.Requests.Sent)
		}
		var b strings.Builder
		if err := resultfile.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		if _, err := resultfile.Decode(strings.NewReader(b.String()), "merged.json"); err != nil {
			t.Fatalf("merged result does not decode: %v", err)
		}
	})
}

// A merged header must not read "constant 50/s … target 100 rps".
func TestMergeShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shapes []string
		want   string
	}{
		{[]string{"constant 50/s for 10m", "constant 50/s for 10m"}, "2 generators × constant 50/s for 10m"},
		{[]string{"constant 50/s for 10m", "ramp 0→50/s over 1m"}, "2 generators (constant 50/s for 10m; ramp 0→50/s over 1m)"},
	}
	for _, tc := range tests {
		var rs []*result.Result
		for _, s := range tc.shapes {
			r := sampleResult(t)
			r.Config.Shape, r.Config.RPS, r.RPS.Target = s, 50, 50
			rs = append(rs, r)
		}
		m, err := Results(rs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Config.Shape != tc.want {
			t.Errorf("merged shape %q, want %q", m.Config.Shape, tc.want)
		}
		var b strings.Builder
		if err := summary.Text(&b, m, summary.Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want+" shape, target 100 rps") {
			t.Errorf("merged header does not say %q beside the summed target:\n%s", tc.want, b.String())
		}
	}
}
