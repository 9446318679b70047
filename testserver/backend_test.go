package testserver

import (
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

// waitFor polls cond until it holds or a generous deadline passes; it
// synchronises with goroutines, it does not measure anything.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !waitfor.True(10*time.Second, time.Millisecond, cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestBackendPoolAndQueue(t *testing.T) {
	t.Parallel()
	b := newBackend(2, 1)
	quit := make(chan struct{})
	for i := range 2 {
		if r := b.acquire(quit); r != acquired {
			t.Fatalf("acquire %d = %d, want acquired", i, r)
		}
	}
	got := make(chan acquireResult, 1)
	go func() { got <- b.acquire(quit) }()
	waitFor(t, "one waiter", func() bool { _, w := b.state(); return w == 1 })
	for i := range 2 {
		if r := b.acquire(quit); r != queueFull {
			t.Fatalf("acquire with full queue %d = %d, want queueFull", i, r)
		}
	}
	if inUse, waiting := b.state(); inUse != 2 || waiting != 1 {
		t.Fatalf("state = %d in use, %d waiting; want 2, 1", inUse, waiting)
	}
	b.release()
	if r := <-got; r != acquired {
		t.Fatalf("waiter got %d, want acquired", r)
	}
	if inUse, waiting := b.state(); inUse != 2 || waiting != 0 {
		t.Fatalf("after hand-off: %d in use, %d waiting; want 2, 0", inUse, waiting)
	}
	b.release()
	b.release()
	if inUse, _ := b.state(); inUse != 0 {
		t.Fatalf("after releases: %d in use, want 0", inUse)
	}
}

func TestBackendFIFO(t *testing.T) {
	t.Parallel()
	b := newBackend(1, 3)
	quit := make(chan struct{})
	if b.acquire(quit) != acquired {
		t.Fatal("first acquire failed")
	}
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			if b.acquire(quit) == acquired {
				order <- i
			}
		}()
		waitFor(t, "waiter to queue", func() bool { _, w := b.state(); return w == i+1 })
	}
	for want := range 3 {
		b.release()
		if got := <-order; got != want {
			t.Fatalf("connection went to waiter %d, want %d", got, want)
		}
	}
}

func TestBackendAbort(t *testing.T) {
	t.Parallel()
	b := newBackend(1, 1)
	quit := make(chan struct{})
	if b.acquire(quit) != acquired {
		t.Fatal("first acquire failed")
	}
	got := make(chan acquireResult, 1)
	go func() { got <- b.acquire(quit) }()
	waitFor(t, "one waiter", func() bool { _, w := b.state(); return w == 1 })
	close(quit)
	if r := <-got; r != aborted {
		t.Fatalf("waiter got %d, want aborted", r)
	}
	if inUse, waiting := b.state(); inUse != 1 || waiting != 0 {
		t.Fatalf("after abort: %d in use, %d waiting; want 1, 0", inUse, waiting)
	}
}

func TestBackendNoQueue(t *testing.T) {
	t.Parallel()
	b := newBackend(1, 0)
	quit := make(chan struct{})
	if b.acquire(quit) != acquired {
		t.Fatal("first acquire failed")
	}
	if r := b.acquire(quit); r != queueFull {
		t.Fatalf("second acquire = %d, want queueFull", r)
	}
}
