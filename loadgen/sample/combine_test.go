package sample

import (
	"context"
	"errors"
	"testing"
	"time"
)

type fixedSampler struct {
	name string
	r    Reading
	err  error
}

func (f fixedSampler) Source() string   { return f.name }
func (f fixedSampler) Series() []string { return []string{f.name + "_series"} }
func (f fixedSampler) Sample(context.Context, time.Time) (Reading, error) {
	return f.r, f.err
}

func TestCombine(t *testing.T) {
	t.Parallel()
	primary := fixedSampler{name: "pid:1", r: Reading{CPUPct: 40, RSSBytes: 100}}
	prom := fixedSampler{name: "promql:x", r: Reading{CPUPct: 90, RSSBytes: 5, Extra: map[string]float64{"cpu": 0.9}}}
	dead := fixedSampler{name: "promql:dead", err: errors.New("connection refused")}

	s := Combine(primary, prom)
	r, err := s.Sample(context.Background(), time.Now())
	if err != nil || r.CPUPct != 40 || r.RSSBytes != 100 || r.Extra["cpu"] != 0.9 {
		t.Fatalf("reading %+v err %v: want the primary's CPU and RSS with the extra series", r, err)
	}
	if s.Source() != "pid:1 + promql:x" || len(s.Series()) != 2 {
		t.Fatalf("source %q series %v", s.Source(), s.Series())
	}

	r, err = Combine(primary, dead).Sample(context.Background(), time.Now())
	if !errors.Is(err, ErrPartial) || r.CPUPct != 40 {
		t.Fatalf("a dead extra sampler: reading %+v err %v, want a partial reading", r, err)
	}

	r, err = Combine(fixedSampler{name: "metrics:down", err: errors.New("down")}, prom).Sample(context.Background(), time.Now())
	if !errors.Is(err, ErrPartial) || r.CPUPct != 90 || r.Extra["cpu"] != 0.9 {
		t.Fatalf("a dead primary: reading %+v err %v, want the extra's figures", r, err)
	}
	if _, ok := Combine(primary).(fixedSampler); !ok {
		t.Fatal("Combine with no extras should return the primary itself")
	}
}
