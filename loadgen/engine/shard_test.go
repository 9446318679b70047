package engine

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

func shapes(t *testing.T) map[string]*Schedule {
	t.Helper()
	mk := func(segs ...Segment) *Schedule {
		s, err := NewSchedule(segs...)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return map[string]*Schedule{
		"constant": mk(Segment{From: 100, To: 100, Duration: 10 * time.Second}),
		"odd":      mk(Segment{From: 7.3, To: 7.3, Duration: 3 * time.Second}),
		"ramp":     mk(Segment{From: 10, To: 1000, Duration: 15 * time.Second}),
		"stages": mk(Segment{From: 50, To: 50, Duration: 2 * time.Second}, Segment{Duration: time.Second},
			Segment{From: 50, To: 500, Duration: 3 * time.Second}, Segment{From: 500, To: 0, Duration: 2 * time.Second}),
		"producers": mk(Segment{From: 100, To: 100, Duration: 1200 * 10 * time.Millisecond}),
		"tiny":      mk(Segment{From: 2, To: 2, Duration: time.Second}),
	}
}

// TestShardsUnionIsTheSchedule checks the contract of sharding: over all
// shards, every global request is sent exactly once, at its global due
// time, with its global sequence number.
func TestShardsUnionIsTheSchedule(t *testing.T) {
	t.Parallel()
	for name, s := range shapes(t) {
		for _, n := range []int{1, 2, 3, 4, 7} {
			seen := make([]int, s.Total())
			var sum int64
			for i := range n {
				v, err := s.Shard(Shard{Index: i, Count: n})
				if err != nil {
					t.Fatal(err)
				}
				sum += v.Total()
				if v.Span() != s.Span() {
					t.Errorf("%s %d/%d: span %v, want the run's %v", name, i, n, v.Span(), s.Span())
				}
				for k := int64(0); ; k++ {
					due, ok := v.Due(k)
					if !ok {
						if k != v.Total() {
							t.Fatalf("%s %d/%d: Due stops at %d, Total %d", name, i, n, k, v.Total())
						}
						break
					}
					g := v.Seq(k)
					if g%int64(n) != int64(i) {
						t.Fatalf("%s %d/%d: request %d has global number %d", name, i, n, k, g)
					}
					want, _ := s.Due(g)
					if due != want {
						t.Fatalf("%s %d/%d: request %d (global %d) due %v, global schedule says %v", name, i, n, k, g, due, want)
					}
					seen[g]++
				}
			}
			if sum != s.Total() {
				t.Errorf("%s in %d shards: %d requests, the schedule has %d", name, n, sum, s.Total())
			}
			for g, c := range seen {
				if c != 1 {
					t.Fatalf("%s in %d shards: global request %d sent %d times", name, n, g, c)
				}
			}
		}
	}
}

// TestShardSpacing checks that a shard of a constant rate is itself
// evenly spaced at N times the global gap, offset by its index: the
// shards interleave instead of bursting together.
func TestShardSpacing(t *testing.T) {
	t.Parallel()
	s, err := Constant(400, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	gap := 2500 * time.Microsecond
	for i := range 4 {
		v, _ := s.Shard(Shard{Index: i, Count: 4})
		first, _ := v.Due(0)
		if first != time.Duration(i)*gap {
			t.Errorf("shard %d/4 starts at %v, want %v", i, first, time.Duration(i)*gap)
		}
		for k := int64(1); k < v.Total(); k++ {
			a, _ := v.Due(k - 1)
			b, _ := v.Due(k)
			if d := b - a; d < 4*gap-time.Microsecond || d > 4*gap+time.Microsecond {
				t.Fatalf("shard %d/4: gap %v between requests %d and %d, want %v", i, d, k-1, k, 4*gap)
			}
		}
	}
}

func TestShardArithmetic(t *testing.T) {
	t.Parallel()
	for _, total := range []int64{0, 1, 3, 4, 5, 99, 100, 101} {
		for _, n := range []int{1, 2, 4, 5, 16} {
			var shares, splits int64
			for i := range n {
				sh := Shard{Index: i, Count: n}
				shares += sh.Share(total)
				splits += int64(sh.Split(int(total)))
				last := Shard{Index: n - 1, Count: n}
				if d := sh.Split(int(total)) - last.Split(int(total)); d < 0 || d > 1 {
					t.Errorf("split of %d among %d: shard %d differs from the last by %d", total, n, i, d)
				}
			}
			if shares != total || splits != total {
				t.Errorf("%d among %d shards: shares add to %d, splits to %d", total, n, shares, splits)
			}
		}
	}
}

func TestShardValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sh   Shard
		want string
	}{
		{Shard{}, ""},
		{Shard{Index: 0, Count: 1}, ""},
		{Shard{Index: 3, Count: 4}, ""},
		{Shard{Index: 4, Count: 4}, "between 0 and 3"},
		{Shard{Index: -1, Count: 4}, "between 0 and 3"},
		{Shard{Index: 0, Count: -2}, "must be positive"},
		{Shard{Index: 2}, "without a count"},
	}
	for _, tt := range tests {
		err := tt.sh.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: error %v, want %q", tt.sh, err, tt.want)
		}
	}
	s, _ := Constant(10, time.Second)
	v, err := s.Shard(Shard{Index: 1, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Shard(Shard{Index: 0, Count: 2}); err == nil {
		t.Error("a shard view was sharded again")
	}
}

func TestClosedShard(t *testing.T) {
	t.Parallel()
	c := &Closed{Concurrency: []int{1, 3, 10, 100}, Step: time.Second}
	sum := make([]int, len(c.Concurrency))
	for i := range 4 {
		v, err := c.Shard(Shard{Index: i, Count: 4})
		if err != nil {
			t.Fatal(err)
		}
		if err := v.validate(100); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		for j, n := range v.Concurrency {
			sum[j] += n
		}
	}
	if !slices.Equal(sum, c.Concurrency) {
		t.Fatalf("shards' concurrency adds to %v, want %v", sum, c.Concurrency)
	}
	if c.Concurrency[0] != 1 {
		t.Fatal("Shard changed the ramp it was given")
	}
}

// TestStartGate waits at gates in a synctest bubble, on clock.Runtime:
// the wait before an early gate is virtual, so its length is exact.
func TestStartGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		from       time.Duration // the clock's reading, relative to the gate's instant
		stopAfter  time.Duration // > 0: the stop channel closes then
		wantWaited time.Duration
		wantOffset time.Duration
		wantOK     bool
		wantLate   bool
	}{
		{"early", -5 * time.Second, 0, 5 * time.Second, 0, true, false},
		{"on time", 0, 0, 0, 0, true, false},
		{"late within tolerance", 700 * time.Millisecond, 0, 0, 700 * time.Millisecond, true, false},
		{"too late", 1500 * time.Millisecond, 0, 0, 1500 * time.Millisecond, false, true},
		{"stopped while waiting", -time.Minute, 10 * time.Second, 10 * time.Second, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				at := time.Now().Add(-tt.from)
				gate := StartGate{At: at, Tolerance: time.Second}
				stop := make(chan struct{})
				if tt.stopAfter > 0 {
					time.AfterFunc(tt.stopAfter, func() { close(stop) })
				}
				begin := time.Now()
				start, offset, ok, err := gate.Wait(clock.Runtime{}, stop)
				waited := time.Since(begin)
				var late *LateError
				if gotLate := errors.As(err, &late); gotLate != tt.wantLate {
					t.Fatalf("error %v, want late %v", err, tt.wantLate)
				}
				if tt.wantLate {
					if late.Late != tt.wantOffset || !strings.Contains(err.Error(), "start tolerance of 1s") {
						t.Errorf("%v", err)
					}
					return
				}
				if ok != tt.wantOK || waited != tt.wantWaited {
					t.Errorf("ok %v waited %v, want %v %v", ok, waited, tt.wantOK, tt.wantWaited)
				}
				if ok && (!start.Equal(at) || offset != tt.wantOffset) {
					t.Errorf("start %v offset %v, want %v %v", start, offset, at, tt.wantOffset)
				}
			})
		})
	}
}

// TestShardedRun runs two shards of one schedule against one server and
// checks that together they sent every sequence number exactly once, and
// that each result says which shard it is.
func TestShardedRun(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seqs []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(string(b), `{"seq":`), "}"))
		if err == nil {
			mu.Lock()
			seqs = append(seqs, n)
			mu.Unlock()
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	at := time.Now().Add(200 * time.Millisecond)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			cfg := testConfig(t, srv.URL+"/eventListener/v7", 102, 500*time.Millisecond)
			v, err := cfg.Load.(*Schedule).Shard(Shard{Index: i, Count: 2})
			if err != nil {
				t.Error(err)
				return
			}
			cfg.Load = v
			cfg.Start = &StartGate{At: at, Tolerance: 5 * time.Second}
			e, err := newREST(cfg)
			if err != nil {
				t.Error(err)
				return
			}
			res, err := e.Run(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			want := int64(26 - i) // 51 requests: 0,2,…,50 and 1,3,…,49
			if res.Requests.Scheduled != want || res.Requests.OK != want {
				t.Errorf("shard %d: requests %+v, want %d", i, res.Requests, want)
			}
			if sh := res.Shard; sh == nil || sh.Index != i || sh.Count != 2 || !sh.StartAt.Equal(at.UTC()) || sh.StartOffsetMs < 0 {
				t.Errorf("shard %d: result says %+v", i, res.Shard)
			}
			if !res.Started.Equal(at.UTC()) {
				t.Errorf("shard %d started %v, want the start instant %v", i, res.Started, at)
			}
		})
	}
	wg.Wait()
	slices.Sort(seqs)
	if len(seqs) != 51 || seqs[0] != 0 || seqs[50] != 50 || len(slices.Compact(seqs)) != 51 {
		t.Fatalf("server saw sequence numbers %v, want 0…50 once each", seqs)
	}
}

func TestLateShardDoesNotRun(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("a late shard sent a request")
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL+"/eventListener/v7", 10, time.Second)
	cfg.NoPreflight = true
	cfg.Start = &StartGate{At: time.Unix(1e9, 0), Tolerance: time.Second}
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Run(context.Background())
	var late *LateError
	if !errors.As(err, &late) {
		t.Fatalf("error %v, want a LateError", err)
	}
}

// TestShardCycle checks a shard of a cycle (HV-VES producers) against
// its definition, member by member: Global lists exactly the numbers n
// below total with (n mod Cycle) mod Count == Index, in order, Share
// counts them, and the shards' members add up to the run.
func TestShardCycle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		count, cycle int
		total        int64
	}{
		{2, 4, 100}, {2, 5, 101}, {3, 6, 60}, {3, 7, 1}, {3, 7, 23}, {4, 3, 30}, {5, 1, 9}, {3, 14, 14 * 6000},
	}
	for _, c := range tests {
		var sum int64
		for i := range c.count {
			sh := Shard{Index: i, Count: c.count, Cycle: c.cycle}
			if err := sh.Validate(); err != nil {
				t.Fatalf("%+v: %v", sh, err)
			}
			var want []int64
			for n := range c.total {
				if int(n%int64(c.cycle))%c.count == i {
					want = append(want, n)
				}
			}
			if got := sh.Share(c.total); got != int64(len(want)) {
				t.Errorf("%+v of %d: share %d, want %d", sh, c.total, got, len(want))
			}
			for k, n := range want {
				if g := sh.Global(int64(k)); g != n {
					t.Fatalf("%+v: member %d is %d, want %d", sh, k, g, n)
				}
			}
			if members := sh.plain(int64(c.cycle)); members == 0 && sh.Global(0) != -1 {
				t.Errorf("%+v: a shard with no place in the cycle has member %d", sh, sh.Global(0))
			}
			if f, w := sh.Fraction(), float64(sh.Share(int64(c.cycle)))/float64(c.cycle); f != w {
				t.Errorf("%+v: fraction %v, want %v", sh, f, w)
			}
			sum += int64(len(want))
		}
		if sum != c.total {
			t.Errorf("count %d cycle %d: members add to %d of %d", c.count, c.cycle, sum, c.total)
		}
	}
	if err := (Shard{Index: 0, Count: 2, Cycle: -1}).Validate(); err == nil {
		t.Error("a negative cycle passed")
	}
}

// TestScheduleShardOfCycle: the schedule view of a cycle shard keeps the
// global due times of its members and its share of the rate.
func TestScheduleShardOfCycle(t *testing.T) {
	t.Parallel()
	const producers = 5
	s, err := Constant(producers/0.01, 40*10*time.Millisecond) // 5 producers × 40 every 10 ms
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		v, err := s.Shard(Shard{Index: i, Count: 2, Cycle: producers})
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(40 * (3 - i)); v.Total() != want { // producers 0, 2, 4 and 1, 3
			t.Errorf("shard %d: %d requests, want %d", i, v.Total(), want)
		}
		for k := range v.Total() {
			g := v.Seq(k)
			if int(g%producers)%2 != i {
				t.Fatalf("shard %d: request %d is global %d, producer %d", i, k, g, g%producers)
			}
			due, _ := v.Due(k)
			if want, _ := s.Due(g); due != want {
				t.Fatalf("shard %d: request %d due %v, want %v", i, k, due, want)
			}
		}
		if r, want := v.RateAt(0), 500*float64(3-i)/5; r < want-1e-9 || r > want+1e-9 {
			t.Errorf("shard %d: rate %v, want %v", i, r, want)
		}
	}
}
