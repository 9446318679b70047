package result

import (
	"errors"
	"testing"
	"time"
)

// partTally counts n requests: ok ones at 1, 2, … ms, and every fifth an
// http_503.
func partTally(n int) Tally {
	t := NewTally()
	for i := 1; i <= n; i++ {
		o := Outcome{Class: OutcomeOK, Latency: time.Duration(i) * time.Millisecond, Service: time.Millisecond}
		if i%5 == 0 {
			o.Class = "http_503"
		}
		t.Add(o)
	}
	return t
}

func TestPartsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		{"empty", 0},
		{"one", 1},
		{"several", 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var enc HistogramEncoder
			in := partTally(tt.n)

			q, err := in.RequestStats("fault", 3, &enc)
			if err != nil {
				t.Fatal(err)
			}
			if q.Name != "fault" || q.Weight != 3 || q.Requests.Sent != in.Sent || q.Latency.Count != int64(tt.n) {
				t.Errorf("request stats %+v from tally sent %d", q, in.Sent)
			}
			back, err := q.Tally()
			if err != nil {
				t.Fatal(err)
			}
			samePart(t, "kind", back, in)

			s, err := in.Step(Step{Concurrency: 7, StartS: 10, DurationS: 4}, &enc)
			if err != nil {
				t.Fatal(err)
			}
			if s.Concurrency != 7 || s.StartS != 10 || s.DurationS != 4 || s.RPS != float64(in.Sent)/4 {
				t.Errorf("step %+v, want the frame kept and rps %v", s, float64(in.Sent)/4)
			}
			back, err = s.Tally()
			if err != nil {
				t.Fatal(err)
			}
			samePart(t, "step", back, in)
		})
	}
}

// samePart checks what a part carries: counts, classes of a kind and the
// latency distribution.
func samePart(t *testing.T, what string, got, want Tally) {
	t.Helper()
	if got.Sent != want.Sent || got.OK != want.OK || got.Errors != want.Errors {
		t.Errorf("%s: sent/ok/errors %d/%d/%d, want %d/%d/%d", what, got.Sent, got.OK, got.Errors, want.Sent, want.OK, want.Errors)
	}
	if what == "kind" && got.Classes["http_503"] != want.Classes["http_503"] {
		t.Errorf("%s: classes %v, want %v", what, got.Classes, want.Classes)
	}
	if g, w := Summarize(got.Latency), Summarize(want.Latency); g != w {
		t.Errorf("%s: latency %+v, want %+v", what, g, w)
	}
}

func TestPartsMergeAsTallies(t *testing.T) {
	var enc HistogramEncoder
	a, b := partTally(10), partTally(30)
	qa, _ := a.RequestStats("fault", 1, &enc)
	qb, _ := b.RequestStats("fault", 1, &enc)
	var sum Tally
	for _, q := range []RequestStats{qa, qb} {
		tq, err := q.Tally()
		if err != nil {
			t.Fatal(err)
		}
		sum.Merge(&tq)
	}
	m, err := sum.RequestStats("fault", 1, &enc)
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests.Sent != 40 || m.Errors["http_503"] != 8 || m.Latency.Count != 40 || m.Latency.Max < 29.9 || m.Latency.Max > 30.1 {
		t.Errorf("merged kind %+v", m)
	}
	if m.Service.Count != 0 {
		t.Errorf("merged kind service %+v: a kind keeps no service distribution, want none", m.Service)
	}
}

func TestPartsRefuseBadHistograms(t *testing.T) {
	tests := []struct {
		name string
		read func() error
		want error
	}{
		{"kind counts latency but has no histogram", func() error {
			q := RequestStats{Name: "fault", Latency: Summary{Count: 3}}
			_, err := q.Tally()
			return err
		}, ErrMissingHistogram},
		{"step counts latency but has no histogram", func() error {
			s := Step{StartS: 5, Latency: Summary{Count: 3}}
			_, err := s.Tally()
			return err
		}, ErrMissingHistogram},
		{"kind histogram is not one", func() error {
			q := RequestStats{Name: "fault", Histogram: "not base64!"}
			_, err := q.Tally()
			return err
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
		})
	}
}
