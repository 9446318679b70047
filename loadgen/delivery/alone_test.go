package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/usage"
)

func TestAloneEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expect int64
		rps    float64
		d      time.Duration
		batch  int
		want   uint64
	}{
		{100, 50, time.Minute, 2, 100},
		{-1, 50, time.Minute, 2, 6002},
		{-1, 0, time.Minute, 1, DefaultAloneEvents},
		{0, 0.5, 3 * time.Second, 0, 2},
	}
	for _, tt := range tests {
		if got := AloneEvents(tt.expect, tt.rps, tt.d, tt.batch); got != tt.want {
			t.Errorf("AloneEvents(%d, %g, %v, %d) = %d, want %d", tt.expect, tt.rps, tt.d, tt.batch, got, tt.want)
		}
	}
}

// TestAloneFollow: a lone follower stops once the expected events
// arrived, or when its context ends (marked interrupted), and its result
// is a consumer's delivery of the run; a source that cannot be opened is
// the error.
func TestAloneFollow(t *testing.T) {
	t.Parallel()
	start := time.Now()
	for _, tt := range []struct {
		name        string
		expect      int64
		cancel      bool
		openErr     error
		interrupted bool
	}{
		{name: "all arrived", expect: 2},
		{name: "stopped", expect: -1, cancel: true, interrupted: true},
		{name: "no source", expect: -1, openErr: errors.New("preflight: refused")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := &chanSource{recs: make(chan Record)}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := Alone{Plan: Plan{RunID: "r", Events: 10, Rate: 100}, Start: start, Duration: time.Hour, Expect: tt.expect}
			var end time.Time
			go func() {
				src.recs <- jsonRecord("r-0", 0, start)
				src.recs <- jsonRecord("r-1", 0, start)
				if tt.cancel {
					cancel()
				}
			}()
			res, err := a.Follow(ctx, func(Config) (Source, string, error) { return src, "kafka://t", tt.openErr }, func(e time.Time) { end = e })
			if tt.openErr != nil {
				if !errors.Is(err, tt.openErr) {
					t.Fatalf("%v, want %v", err, tt.openErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := res.Delivery
			if !end.Equal(start.Add(time.Hour)) || !d.Consumer || res.Interrupted != tt.interrupted || res.Config.RunID != "r" || res.Config.RPS != 100 {
				t.Errorf("end %v, consumer %v, interrupted %v, config %+v", end, d.Consumer, res.Interrupted, res.Config)
			}
			if tt.expect > 0 && d.Delivered != 2 {
				t.Errorf("delivered %d, want 2", d.Delivered)
			}
		})
	}
}

// TestAloneCheck checks a lone follower's figures: every error is the
// options' and names its option.
func TestAloneCheck(t *testing.T) {
	ok := Alone{Plan: Plan{RunID: "r", Batch: 1}, Duration: time.Second, Expect: -1}
	for _, c := range []struct {
		name    string
		edit    func(*Alone)
		wantErr string
	}{
		{"good", func(*Alone) {}, ""},
		{"no run id", func(a *Alone) { a.Plan.RunID = "" }, "--run-id"},
		{"no duration", func(a *Alone) { a.Duration = 0 }, "--duration"},
		{"negative rate", func(a *Alone) { a.Plan.Rate = -1 }, "--rps"},
		{"no batch", func(a *Alone) { a.Plan.Batch = 0 }, "--batch"},
		{"negative expect", func(a *Alone) { a.Expect = -2 }, "--expect"},
		{"negative grace", func(a *Alone) { a.Grace = -time.Second }, "--grace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := ok
			c.edit(&a)
			err := a.Check()
			if c.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.wantErr) {
				t.Errorf("Check() = %v, want an option error starting %q", err, c.wantErr)
			}
		})
	}
}

// TestAlonePrepare checks that Prepare refuses what Check refuses and
// completes the events followed only when they were not given.
func TestAlonePrepare(t *testing.T) {
	ok := Alone{Plan: Plan{RunID: "r", Batch: 2, Rate: 10}, Duration: time.Minute, Expect: -1}
	for _, c := range []struct {
		name       string
		edit       func(*Alone)
		wantEvents uint64
		wantErr    string
	}{
		{"from the rate", func(*Alone) {}, 601 * 2, ""},
		{"from --expect", func(a *Alone) { a.Expect = 50 }, 50, ""},
		{"given", func(a *Alone) { a.Plan.Events = 7 }, 7, ""},
		{"nothing to go by", func(a *Alone) { a.Plan.Rate = 0 }, DefaultAloneEvents, ""},
		{"checked first", func(a *Alone) { a.Plan.RunID = "" }, 0, "--run-id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := ok
			c.edit(&a)
			err := a.Prepare()
			switch {
			case c.wantErr != "":
				if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.wantErr) || a.Plan.Events != 0 {
					t.Errorf("Prepare() = %v with %d events, want an option error starting %q", err, a.Plan.Events, c.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case a.Plan.Events != c.wantEvents:
				t.Errorf("%d events, want %d", a.Plan.Events, c.wantEvents)
			}
		})
	}
}

// TestAloneGroup checks that a lone follower's group is its own, apart
// from the group of run --consume for the same run.
func TestAloneGroup(t *testing.T) {
	for _, c := range []struct{ runID, want string }{
		{"r1", "vesload-r1-consume"},
		{"nightly-42", "vesload-nightly-42-consume"},
	} {
		if got := (Alone{Plan: Plan{RunID: c.runID}}).Group(); got != c.want {
			t.Errorf("run %q: group %q, want %q", c.runID, got, c.want)
		}
	}
}

// TestAloneAgree: a follower in the run's start agreement opens its
// source before it agrees (so it reads before the first event is sent),
// learns the plan and the start there, and stops once the plan's events
// are in; an agreement that fails, or hands another run's plan, closes
// the source and is the error.
func TestAloneAgree(t *testing.T) {
	t.Parallel()
	start := time.Now()
	plan := Plan{RunID: "r", Events: 3, Rate: 100}
	for _, tt := range []struct {
		name    string
		agreed  Agreed
		err     error
		wantErr string
	}{
		{name: "all arrived", agreed: Agreed{Plan: plan, Span: time.Hour}},
		{name: "no start", err: errors.New("no start"), wantErr: "no start"},
		{name: "another run", agreed: Agreed{Plan: Plan{RunID: "q", Events: 3}, Span: time.Second}, wantErr: `of run "q"`},
		{name: "empty plan", agreed: Agreed{Plan: Plan{RunID: "r"}, Span: time.Second}, wantErr: "nothing to follow"},
		{name: "huge plan", agreed: Agreed{Plan: Plan{RunID: "r", Events: MaxAgreedEvents + 1}, Span: time.Second}, wantErr: "more than a consumer follows"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := &chanSource{recs: make(chan Record)}
			opened := false
			a := Alone{Plan: Plan{RunID: "r"}, Grace: time.Minute, Expect: -1,
				Agree: func(context.Context) (Agreed, time.Time, error) {
					if !opened {
						t.Error("agreed before the source was open")
					}
					return tt.agreed, start, tt.err
				}}
			go func() {
				for i := range 3 {
					select {
					case src.recs <- jsonRecord(fmt.Sprintf("r-%d", i), 0, start):
					case <-time.After(10 * time.Second):
						return
					}
				}
			}()
			var end time.Time
			res, err := a.Follow(context.Background(), func(Config) (Source, string, error) { opened = true; return src, "kafka://t", nil },
				func(e time.Time) { end = e })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !src.closed {
					t.Fatalf("%v (source closed %v), want %q", err, src.closed, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := res.Delivery
			if d.Delivered != 3 || !end.Equal(start.Add(time.Hour+time.Minute)) || res.Config.RPS != 100 || res.Interrupted || !res.Started.Equal(start) {
				t.Errorf("delivered %d, end %v, config %+v, interrupted %v: want the plan's 3 events, the run's end plus the grace", d.Delivered, end, res.Config, res.Interrupted)
			}
		})
	}
}
