package sample

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Aggregate folds a run's readings of one sampler into the result
// document's target (or generator) figures. A failed sample is counted and
// its text kept; it never stops the run. Aggregate is safe for concurrent
// use, so the run can read Target while sampling still goes on.
type Aggregate struct {
	mu      sync.Mutex
	source  string
	series  []string
	cpuSum  float64
	cpuMax  float64
	cpuN    int
	rssMax  int64
	extra   map[string]*extraStats
	errors  int64
	lastErr string
	exited  bool
	last    Reading
}

// extraStats accumulates one named series.
type extraStats struct {
	sum, max float64
	n        int
}

// NewAggregate starts an empty aggregate for readings from source.
func NewAggregate(source string) *Aggregate {
	return &Aggregate{source: source, extra: make(map[string]*extraStats)}
}

// Add folds in one reading, or counts err. A reading returned with an
// error wrapping ErrPartial is folded in as well as counted.
func (a *Aggregate) Add(r Reading, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.errors++
		a.lastErr = err.Error()
		if !errors.Is(err, ErrPartial) {
			return
		}
	}
	a.last = r
	a.exited = a.exited || r.Exited
	if !r.NoCPU && finite(r.CPUPct) {
		a.cpuSum += r.CPUPct
		a.cpuN++
		if a.cpuN == 1 || r.CPUPct > a.cpuMax {
			a.cpuMax = r.CPUPct
		}
	}
	a.rssMax = max(a.rssMax, r.RSSBytes)
	for name, v := range r.Extra {
		if !finite(v) {
			continue
		}
		st := a.extra[name]
		if st == nil {
			st = &extraStats{max: v}
			a.extra[name] = st
		}
		st.sum += v
		st.max = max(st.max, v)
		st.n++
	}
}

// Take samples s once at now, folds the reading in and records the
// series s used: the one call a sampling loop needs. It returns what
// s.Sample returned.
func (a *Aggregate) Take(ctx context.Context, s Sampler, now time.Time) (Reading, error) {
	r, err := s.Sample(ctx, now)
	a.Add(r, err)
	if series := s.Series(); len(series) > 0 {
		a.SetSeries(series)
	}
	return r, err
}

// Prime takes the first reading of a run from s: its memory counts, its
// CPU figure does not, since it covers the time from the sampler's start
// (the run's set-up: a built-in emulator starting, the preflight) to the
// run's, which is not the run's. The readings after it count from here.
func (a *Aggregate) Prime(ctx context.Context, s Sampler, now time.Time) (Reading, error) {
	r, err := s.Sample(ctx, now)
	r.NoCPU = true
	a.Add(r, err)
	if series := s.Series(); len(series) > 0 {
		a.SetSeries(series)
	}
	return r, err
}

// SetSeries records the metric series the sampler used (Sampler.Series),
// which a remote sampler only knows after scraping.
func (a *Aggregate) SetSeries(series []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.series = slices.Clone(series)
}

// Target is the run's summary in the result document's form: CPU average
// and maximum over the readings that had a CPU figure, resident memory
// maximum, the extra series' average and maximum, and the sample errors.
func (a *Aggregate) Target() *result.Target {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := &result.Target{
		CPUMaxPct:    a.cpuMax,
		RSSMaxBytes:  a.rssMax,
		Source:       a.source,
		Series:       slices.Clone(a.series),
		SampleErrors: a.errors,
		LastError:    a.lastErr,
		Exited:       a.exited,
	}
	if a.cpuN > 0 {
		t.CPUAvgPct = a.cpuSum / float64(a.cpuN)
	}
	if len(a.extra) > 0 {
		t.Extra = make(map[string]result.SeriesStats, len(a.extra))
		for name, st := range a.extra {
			t.Extra[name] = result.SeriesStats{Avg: st.sum / float64(st.n), Max: st.max, Samples: st.n}
		}
	}
	return t
}

// Last is the most recent reading folded in (zero before the first), for
// the per-second timeline and the live metrics.
func (a *Aggregate) Last() Reading {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.last
	r.Extra = maps.Clone(a.last.Extra)
	return r
}

// FailedWarning is the run's warning about samples of the target that
// failed, with their count and the last reason, or "" when none did: a
// failed scrape never stops a run, but the figures then cover less of it.
func FailedWarning(t *result.Target) string {
	if t == nil || t.SampleErrors == 0 {
		return ""
	}
	return fmt.Sprintf("%d samples of the target (%s) failed, the last with: %s; its CPU and memory figures cover the other seconds",
		t.SampleErrors, t.Source, strings.Join(strings.Fields(t.LastError), " "))
}
