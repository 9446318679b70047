package testserver

import "sync"

// backend models the collector's downstream publisher: a pool of
// connections to DMaaP with a bounded pending-acquire queue. A request
// takes a free connection at once; when all are busy it waits in FIFO
// order if fewer than queue requests already wait, and fails at once
// otherwise. A released connection goes straight to the longest waiter.
// The model is exact: no timing is involved in deciding who gets what.
type backend struct {
	mu      sync.Mutex
	pool    int
	free    int
	queue   int
	waiters []chan struct{}
}

func newBackend(pool, queue int) *backend {
	return &backend{pool: pool, free: pool, queue: queue}
}

// acquireResult says how an acquire ended.
type acquireResult uint8

const (
	acquired  acquireResult = iota // the caller holds a connection: release it
	queueFull                      // every connection busy and the queue full
	aborted                        // quit closed while waiting
)

// acquire gets a connection, waiting for one if the queue has room.
func (b *backend) acquire(quit <-chan struct{}) acquireResult {
	b.mu.Lock()
	if b.free > 0 {
		b.free--
		b.mu.Unlock()
		return acquired
	}
	if len(b.waiters) >= b.queue {
		b.mu.Unlock()
		return queueFull
	}
	w := make(chan struct{})
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w:
		return acquired
	case <-quit:
		b.abandon(w)
		return aborted
	}
}

// abandon removes waiter w after quit; if w was handed a connection in
// the meantime, the connection is released again.
func (b *backend) abandon(w chan struct{}) {
	b.mu.Lock()
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			b.mu.Unlock()
			return
		}
	}
	b.mu.Unlock()
	b.release()
}

// release returns a connection, handing it to the first waiter if any.
func (b *backend) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiters) > 0 {
		w := b.waiters[0]
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		close(w)
		return
	}
	b.free++
}

// state returns the connections in use and the requests waiting.
func (b *backend) state() (inUse, waiting int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pool - b.free, len(b.waiters)
}
