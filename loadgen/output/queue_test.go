package output

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestQueueAccountsForEveryBatch: a batch put is written, failed or
// dropped, once: a full queue drops at Put, a store that fails counts its
// failures, and a store that hangs past Close's wait has the batch under
// way and those behind it dropped, its write cancelled.
func TestQueueAccountsForEveryBatch(t *testing.T) {
	t.Parallel()
	errRefused := errors.New("refused")
	for _, tc := range []struct {
		name  string
		size  int
		write func(ctx context.Context, b int) error
		want  Written
	}{
		{"written", 8, func(context.Context, int) error { return nil }, Written{Batches: 5, Items: 15}},
		{"refused", 8, func(context.Context, int) error { return errRefused }, Written{Failed: 5, LastError: "refused"}},
		{"hung", 8, func(ctx context.Context, _ int) error { <-ctx.Done(); return ctx.Err() }, Written{Dropped: 5}},
		{"full", 1, func(ctx context.Context, _ int) error { <-ctx.Done(); return ctx.Err() }, Written{Dropped: 5, LastError: "full"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := NewQueue(QueueConfig[int]{Size: tc.size, Write: tc.write, Items: func(b int) int64 { return int64(b) }, Full: "full"})
			for range 5 {
				q.Put(3)
			}
			got := q.Close(50 * time.Millisecond)
			if got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
			if again := q.Close(0); again != got {
				t.Errorf("closing again: %+v, want %+v", again, got)
			}
			q.Put(3)
			if after := q.Figures(); after.Dropped != got.Dropped+1 {
				t.Errorf("a put after Close: dropped %d, want %d", after.Dropped, got.Dropped+1)
			}
		})
	}
}
