package testserver

import "sync"

// idShards spreads the duplicate detector over independent locks so that
// concurrent requests rarely contend.
const idShards = 16

// idSet remembers recent event IDs (as 64-bit hashes) to count
// duplicates in bounded memory. Each shard keeps two generations: when
// the current one reaches its share of the window it becomes the previous
// one and the older is dropped. So the set holds at most window IDs and
// always at least the most recent window/2 (spread evenly by hash).
// Two distinct IDs collide with probability about n²/2⁶⁵: negligible.
type idSet struct {
	perGen int
	shards [idShards]idShard
}

type idShard struct {
	mu   sync.Mutex
	cur  map[uint64]struct{}
	prev map[uint64]struct{}
}

func newIDSet(window int) *idSet {
	s := &idSet{perGen: max(window/(2*idShards), 1)}
	for i := range s.shards {
		s.shards[i].cur = make(map[uint64]struct{})
	}
	return s
}

// seen records h and reports whether it was already remembered.
func (s *idSet) seen(h uint64) bool {
	sh := &s.shards[h%idShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if _, ok := sh.cur[h]; ok {
		return true
	}
	if _, ok := sh.prev[h]; ok {
		return true
	}
	if len(sh.cur) >= s.perGen {
		sh.prev, sh.cur = sh.cur, make(map[uint64]struct{}, s.perGen)
	}
	sh.cur[h] = struct{}{}
	return false
}
