package engine

import "sync"

// connPool is the run's one pool of connections: token t is worker t and
// the connection that worker owns. A free token goes back on top of a
// stack and the next request takes the top one, so the connection used
// last, whose worker, buffers and socket are still in the processor's
// caches, serves next: a run that needs three connections at a time uses
// three, however large the pool. A queue would turn every token in
// order, and each request would wake the coldest of them.
type connPool struct {
	mu   sync.Mutex
	free []token
	// freed has a value after a give, for whoever waits for a token: a
	// wake-up that finds the stack empty again (another taker was first)
	// only sends the waiter back to wait.
	freed chan struct{}
	// inbox[t] is worker t's next request: at most one, since only the
	// holder of token t writes there.
	inbox []chan job
}

func newConnPool(n int) *connPool {
	p := &connPool{free: make([]token, n), freed: make(chan struct{}, 1), inbox: make([]chan job, n)}
	for t := range n {
		// Token 0 on top: the workers that start first serve first.
		p.free[n-1-t] = token(t)
		p.inbox[t] = make(chan job, 1)
	}
	return p
}

// take pops the token of the connection freed last; false when none is
// free.
func (p *connPool) take() (token, bool) {
	p.mu.Lock()
	n := len(p.free)
	if n == 0 {
		p.mu.Unlock()
		return 0, false
	}
	t := p.free[n-1]
	p.free = p.free[:n-1]
	p.mu.Unlock()
	return t, true
}

// give puts t back on top and wakes a waiter, if any.
func (p *connPool) give(t token) {
	p.mu.Lock()
	p.free = append(p.free, t)
	p.mu.Unlock()
	select {
	case p.freed <- struct{}{}:
	default:
	}
}

// send hands j to the worker of t, which the caller took.
func (p *connPool) send(t token, j job) { p.inbox[t] <- j }

// close tells every worker that no request follows.
func (p *connPool) close() {
	for _, c := range p.inbox {
		close(c)
	}
}
