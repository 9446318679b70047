package sample

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func TestAggregate(t *testing.T) {
	t.Parallel()
	type add struct {
		r   Reading
		err error
	}
	partial := fmt.Errorf("%w: query b: no series", ErrPartial)
	tests := []struct {
		name string
		adds []add
		want result.Target
	}{
		{
			name: "nothing",
			want: result.Target{Source: "src"},
		},
		{
			name: "cpu avg and max skip unknown CPU",
			adds: []add{
				{r: Reading{NoCPU: true, RSSBytes: 10}},
				{r: Reading{CPUPct: 20, RSSBytes: 30}},
				{r: Reading{CPUPct: 60, RSSBytes: 20}},
				{r: Reading{CPUPct: math.NaN()}},
			},
			want: result.Target{Source: "src", CPUAvgPct: 40, CPUMaxPct: 60, RSSMaxBytes: 30},
		},
		{
			name: "errors counted, failed readings ignored",
			adds: []add{
				{r: Reading{CPUPct: 10}},
				{r: Reading{CPUPct: 99, RSSBytes: 99}, err: errors.New("scrape: connection refused")},
				{r: Reading{NoCPU: true}, err: errors.New("scrape: HTTP 503")},
			},
			want: result.Target{Source: "src", CPUAvgPct: 10, CPUMaxPct: 10, SampleErrors: 2, LastError: "scrape: HTTP 503"},
		},
		{
			name: "partial readings folded in and counted",
			adds: []add{
				{r: Reading{NoCPU: true, Extra: map[string]float64{"a": 1, "n": math.Inf(1)}}},
				{r: Reading{NoCPU: true, Extra: map[string]float64{"a": 3}}, err: partial},
			},
			want: result.Target{Source: "src", SampleErrors: 1, LastError: partial.Error(),
				Extra: map[string]result.SeriesStats{"a": {Avg: 2, Max: 3, Samples: 2}}},
		},
		{
			name: "negative extras and exit kept",
			adds: []add{
				{r: Reading{CPUPct: 5, Extra: map[string]float64{"d": -4}}},
				{r: Reading{NoCPU: true, Exited: true, Extra: map[string]float64{"d": -2}}},
				{r: Reading{CPUPct: 7}},
			},
			want: result.Target{Source: "src", CPUAvgPct: 6, CPUMaxPct: 7, Exited: true,
				Extra: map[string]result.SeriesStats{"d": {Avg: -3, Max: -2, Samples: 2}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := NewAggregate("src")
			for _, ad := range tt.adds {
				a.Add(ad.r, ad.err)
			}
			if got := a.Target(); !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("Target = %+v\nwant     %+v", *got, tt.want)
			}
		})
	}
}

func TestAggregateLastAndTake(t *testing.T) {
	t.Parallel()
	srv := serve(t, text("process_cpu_usage 0.5\nprocess_resident_memory_bytes 100\n"))
	s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewAggregate(s.Source())
	if r := a.Last(); r.CPUPct != 0 || r.Extra != nil {
		t.Errorf("Last before any reading = %+v", r)
	}
	if _, err := a.Take(context.Background(), s, time.Now()); err != nil {
		t.Fatal(err)
	}
	a.Add(Reading{CPUPct: 1, Extra: map[string]float64{"x": 1}}, nil)
	last := a.Last()
	last.Extra["x"] = 42 // the caller's copy
	if got := a.Last().Extra["x"]; got != 1 {
		t.Errorf("Last shares its Extra map: %v", got)
	}
	tg := a.Target()
	if tg.CPUMaxPct != 50 || tg.RSSMaxBytes != 100 || !reflect.DeepEqual(tg.Series, []string{"process_cpu_usage", "process_resident_memory_bytes"}) {
		t.Errorf("Target = %+v", *tg)
	}
}

func TestFailedWarning(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		t    *result.Target
		want string
	}{
		{"not sampled", nil, ""},
		{"no failure", &result.Target{Source: "metrics:http://x"}, ""},
		{"failures", &result.Target{Source: "metrics:http://x", SampleErrors: 3, LastError: "scrape http://x: HTTP 503\nService Unavailable"},
			"3 samples of the target (metrics:http://x) failed, the last with: scrape http://x: HTTP 503 Service Unavailable; " +
				"its CPU and memory figures cover the other seconds"},
	}
	for _, tt := range tests {
		if got := FailedWarning(tt.t); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// readings is a Sampler that returns its readings in turn.
type readings []Reading

func (r *readings) Source() string   { return "test" }
func (r *readings) Series() []string { return nil }
func (r *readings) Sample(context.Context, time.Time) (Reading, error) {
	next := (*r)[0]
	*r = (*r)[1:]
	return next, nil
}

// TestPrimeCountsMemoryNotCPU: the first reading of a run covers the time
// before it (a built-in emulator starting up read 111 % in second 0 of a
// 50/s run), so its memory counts and its CPU does not.
func TestPrimeCountsMemoryNotCPU(t *testing.T) {
	t.Parallel()
	s := &readings{{CPUPct: 111, RSSBytes: 300}, {CPUPct: 3, RSSBytes: 200}, {CPUPct: 4, RSSBytes: 250}}
	a := NewAggregate(s.Source())
	now := time.Unix(0, 0)
	if _, err := a.Prime(context.Background(), s, now); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := a.Take(context.Background(), s, now.Add(time.Duration(i+1)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if tg := a.Target(); tg.CPUMaxPct != 4 || tg.CPUAvgPct != 3.5 || tg.RSSMaxBytes != 300 {
		t.Errorf("Target = %+v, want CPU max 4, avg 3.5 (the primed 111 %% left out) and RSS max 300", *tg)
	}
}
