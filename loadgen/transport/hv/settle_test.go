package hv

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// counts is a scrape of a collector that received n messages and
// started at start.
func counts(n, start float64) CollectorCounters {
	return CollectorCounters{Received: n, Sent: n, HasReceived: true, StartTime: start, Dropped: map[string]float64{}}
}

// scripted answers the scrapes in order, repeating the last.
func scripted(seq ...CollectorCounters) func(context.Context) (CollectorCounters, error) {
	i := 0
	return func(context.Context) (CollectorCounters, error) {
		c := seq[min(i, len(seq)-1)]
		i++
		return c, nil
	}
}

func TestSettle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		before   CollectorCounters
		during   []CollectorCounters // scrapes while the run goes on
		after    []CollectorCounters // scrapes of Settle
		written  int64
		received int64
		warn     string // a warning that must be there, or "" for none
	}{
		{"everything counted", counts(100, 1), nil, []CollectorCounters{counts(1100, 1)}, 1000, 1000, ""},
		{"still counting, then done", counts(100, 1), nil,
			[]CollectorCounters{counts(600, 1), counts(900, 1), counts(1100, 1)}, 1000, 1000, ""},
		{"count stops short: lost, no wait to the bound", counts(100, 1), nil,
			[]CollectorCounters{counts(1000, 1), counts(1000, 1)}, 1000, 900, ""},
		{"still rising at the bound", counts(100, 1), nil,
			[]CollectorCounters{counts(200, 1), counts(300, 1), counts(400, 1), counts(500, 1), counts(600, 1), counts(700, 1), counts(800, 1)},
			1000, 500, "still rising"},
		{"restart: lives added", counts(100, 1), []CollectorCounters{counts(600, 1), counts(50, 2)},
			[]CollectorCounters{counts(500, 2)}, 1000, 1000, "restarted 1 time(s) during the run"},
		{"restart without a start time", counts(100, 0), []CollectorCounters{counts(600, 0), counts(50, 0)},
			[]CollectorCounters{counts(500, 0)}, 1000, 1000, "restarted 1 time(s) during the run"},
		{"new start time, counters carried on", counts(100, 1), []CollectorCounters{counts(600, 1), counts(700, 2)},
			[]CollectorCounters{counts(1100, 2)}, 1000, 1000, "without its counters starting again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lives := NewLives(tt.before)
			for _, c := range tt.during {
				lives.Observe(c)
			}
			var warnings []string
			var took time.Duration
			synctest.Test(t, func(t *testing.T) {
				begin := time.Now()
				warnings = Settle(context.Background(), scripted(tt.after...), lives, tt.written, 2*time.Second, clock.Runtime{})
				took = time.Since(begin)
			})
			// A scrape every settleEvery, up to the bound.
			if want := time.Duration(min(len(tt.after), 5)-1) * settleEvery; took != want {
				t.Errorf("settled in %v, want %v", took, want)
			}
			before, after := lives.Span()
			rc := ReceiverView(before, after, tt.written, "metrics:x")
			if rc.Received != tt.received || rc.Lost != tt.written-tt.received {
				t.Errorf("received %d lost %d, want %d and %d", rc.Received, rc.Lost, tt.received, tt.written-tt.received)
			}
			joined := strings.Join(warnings, "\n")
			if tt.warn == "" && joined != "" {
				t.Errorf("warnings %q, want none", joined)
			}
			if !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings %q, want one containing %q", joined, tt.warn)
			}
		})
	}
}

func TestSettleScrapeFails(t *testing.T) {
	t.Parallel()
	lives := NewLives(counts(100, 1))
	fail := func(context.Context) (CollectorCounters, error) {
		return CollectorCounters{}, errors.New("connection refused")
	}
	warnings := Settle(context.Background(), fail, lives, 10, time.Second, clock.System{})
	if len(warnings) != 1 || !strings.Contains(warnings[0], "connection refused") {
		t.Errorf("warnings %q, want the scrape's failure", warnings)
	}
}
