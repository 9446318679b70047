package waitfor

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestTrue: a condition that comes true is seen; one that never does
// gives up at the limit, after checking it one last time.
func TestTrue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		trueAt int64 // the check from which cond holds; 0 never
		want   bool
	}{
		{"at once", 1, true},
		{"later", 4, true},
		{"never", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var checks atomic.Int64
			cond := func() bool {
				n := checks.Add(1)
				return tt.trueAt > 0 && n >= tt.trueAt
			}
			if got := True(200*time.Millisecond, time.Millisecond, cond); got != tt.want {
				t.Errorf("True = %v after %d checks, want %v", got, checks.Load(), tt.want)
			}
			if tt.trueAt > 0 && checks.Load() != tt.trueAt {
				t.Errorf("%d checks, want %d: it went on after the condition held", checks.Load(), tt.trueAt)
			}
		})
	}
}

// TestCtxEndsWithTheContext: a cancelled context ends the wait.
func TestCtxEndsWithTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Ctx(ctx, time.Hour, func() bool { return false }) {
		t.Error("a condition that never holds was reported true")
	}
}
