package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// Shard is one generator's share of a run that several generators send
// together (docs/ARCHITECTURE.md, "Many generators"). The run keeps one
// global schedule; shard Index of Count sends the requests n ≡ Index
// (mod Count) of it, at their global due times and with their global
// sequence numbers. Started at one instant, the shards' union is exactly
// the single-generator schedule: the counts add up to it, arrivals stay
// evenly spaced (no bursts of Count), and eventIds stay unique because
// they are built from the global sequence number.
//
// A Cycle splits the run by a request's place in a cycle of Cycle
// requests instead: the shard's members are the requests n with
// (n mod Cycle) mod Count == Index. An HV-VES run sets Cycle to its
// producers, since request n is a message of producer n mod Cycle: each
// shard then sends every message of the producers p ≡ Index (mod Count),
// with their run-wide numbers, and a producer (one connection) is never
// split between generators.
//
// The zero Shard (and any Count of 1) is the whole run.
type Shard struct {
	Index int // 0-based
	Count int // how many generators share the run
	Cycle int // 0: members n ≡ Index (mod Count); else see above
}

// Whole reports whether the shard is the whole run.
func (s Shard) Whole() bool { return s.Count <= 1 }

// Validate checks that Index lies in [0, Count).
func (s Shard) Validate() error {
	switch {
	case s.Count < 0:
		return fmt.Errorf("shard count %d: must be positive", s.Count)
	case s.Count == 0 && s.Index != 0:
		return fmt.Errorf("shard %d without a count", s.Index)
	case s.Count > 0 && (s.Index < 0 || s.Index >= s.Count):
		return fmt.Errorf("shard %d/%d: the index must lie between 0 and %d", s.Index, s.Count, s.Count-1)
	case s.Cycle < 0:
		return fmt.Errorf("shard %d/%d: cycle %d must not be negative", s.Index, s.Count, s.Cycle)
	}
	return nil
}

// String is the I/N form the command line takes.
func (s Shard) String() string {
	if s.Whole() {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Global is the run-wide number of the shard's k-th request (-1 for a
// shard of a cycle that holds none of its places).
func (s Shard) Global(k int64) int64 {
	if s.Whole() {
		return k
	}
	if s.Cycle == 0 {
		return k*int64(s.Count) + int64(s.Index)
	}
	m := s.plain(int64(s.Cycle)) // the shard's places in one cycle
	if m == 0 {
		return -1
	}
	return k/m*int64(s.Cycle) + int64(s.Index) + k%m*int64(s.Count)
}

// Share is how many of the run's total requests fall to the shard: the
// numbers n below total that are members (n ≡ Index (mod Count), or
// (n mod Cycle) mod Count == Index).
func (s Shard) Share(total int64) int64 {
	if s.Whole() {
		return total
	}
	if s.Cycle == 0 {
		return s.plain(total)
	}
	c := int64(s.Cycle)
	return total/c*s.plain(c) + s.plain(total%c)
}

// plain is how many numbers below total are ≡ Index (mod Count).
func (s Shard) plain(total int64) int64 {
	if total <= int64(s.Index) {
		return 0
	}
	return (total-int64(s.Index)-1)/int64(s.Count) + 1
}

// Fraction is the shard's part of the run's requests in the long run:
// 1/Count, or its places of a cycle over Cycle.
func (s Shard) Fraction() float64 {
	switch {
	case s.Whole():
		return 1
	case s.Cycle == 0:
		return 1 / float64(s.Count)
	}
	return float64(s.plain(int64(s.Cycle))) / float64(s.Cycle)
}

// Split is the shard's part of c concurrent slots: c/Count, plus one for
// the first c mod Count shards, so that the parts add up to c.
func (s Shard) Split(c int) int {
	if s.Whole() {
		return c
	}
	n := c / s.Count
	if s.Index < c%s.Count {
		n++
	}
	return n
}

// Shard returns the view of the schedule that shard sh sends. Its Total
// is the shard's share, its Due(k) the global Due(sh.Global(k)) and its
// Span the whole run's, so every shard ends with the run.
func (s *Schedule) Shard(sh Shard) (*Schedule, error) {
	if err := sh.Validate(); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	if !s.shard.Whole() {
		return nil, fmt.Errorf("schedule: already the view of shard %s", s.shard)
	}
	v := *s
	v.shard = sh
	v.total = sh.Share(s.total)
	return &v, nil
}

// Seq is the run-wide sequence number of the view's request n: what
// eventIds and the request mix are built from.
func (s *Schedule) Seq(n int64) int64 { return s.shard.Global(n) }

// ShardOf returns which shard the schedule is a view of (the zero Shard
// for a whole schedule).
func (s *Schedule) ShardOf() Shard { return s.shard }

// Shard returns shard sh's part of the closed-model ramp: each step's
// concurrency divided among the shards (Split), so the shards together
// keep the step's concurrency in flight. A shard may get no slot in a
// step with fewer slots than shards; it then waits for the next step.
// Its requests are numbered Global(k), so ids stay unique across shards.
func (c *Closed) Shard(sh Shard) (*Closed, error) {
	if err := sh.Validate(); err != nil {
		return nil, fmt.Errorf("closed model: %w", err)
	}
	if !c.shard.Whole() {
		return nil, fmt.Errorf("closed model: already the part of shard %s", c.shard)
	}
	v := &Closed{Step: c.Step, shard: sh, Concurrency: make([]int, len(c.Concurrency))}
	for i, n := range c.Concurrency {
		v.Concurrency[i] = sh.Split(n)
	}
	return v, nil
}

// ShardOf returns which shard the ramp is the part of.
func (c *Closed) ShardOf() Shard { return c.shard }

// StartGate holds a run back until the instant all shards start at, so
// their schedules line up on the wall clock. Tolerance bounds how late a
// shard may be: one that reaches the gate later refuses to run rather
// than skew the run silently.
type StartGate struct {
	At        time.Time
	Tolerance time.Duration
}

// LateError says that a shard reached its start instant too late.
type LateError struct {
	At        time.Time
	Late      time.Duration
	Tolerance time.Duration
}

func (e *LateError) Error() string {
	return fmt.Sprintf("start instant %s passed %v ago, more than the start tolerance of %v: not starting a run that would be skewed (render the manifests again, or give a later --start-at)",
		e.At.UTC().Format(time.RFC3339Nano), e.Late.Round(time.Millisecond), e.Tolerance)
}

// Wait blocks until the gate's instant and returns it as the run's start,
// with the offset of the clock reading at that moment from the instant
// (how late the shard really began). A shard already later than the
// tolerance gets a *LateError; a closed stop returns ok false.
func (g StartGate) Wait(c clock.Clock, stop <-chan struct{}) (start time.Time, offset time.Duration, ok bool, err error) {
	now := c.Now()
	if late := now.Sub(g.At); late > g.Tolerance {
		return time.Time{}, late, false, &LateError{At: g.At, Late: late, Tolerance: g.Tolerance}
	}
	if wait := g.At.Sub(now); wait > 0 && !clock.Sleep(context.Background(), c, wait, stop) {
		return time.Time{}, 0, false, nil
	}
	return g.At, c.Now().Sub(g.At), true, nil
}

// ShardOf returns which shard a model is the part of (the zero Shard for
// a whole run).
func ShardOf(m Model) Shard {
	switch m := m.(type) {
	case *Schedule:
		return m.ShardOf()
	case *Closed:
		return m.ShardOf()
	}
	return Shard{}
}
