package testserver

import "testing"

func TestIDSet(t *testing.T) {
	t.Parallel()
	s := newIDSet(64) // 2 per generation per shard
	if s.seen(1) {
		t.Fatal("first sighting reported as duplicate")
	}
	if !s.seen(1) {
		t.Fatal("second sighting not reported")
	}
	// Fill shard 1 (h%16 == 1) past two generations: the oldest is forgotten.
	for _, h := range []uint64{17, 33, 49, 65} {
		s.seen(h)
	}
	if s.seen(1) {
		t.Error("id older than the window still remembered")
	}
	if !s.seen(65) {
		t.Error("most recent id forgotten")
	}
	total := 0
	for i := range s.shards {
		total += len(s.shards[i].cur) + len(s.shards[i].prev)
	}
	if total > 64 {
		t.Errorf("set holds %d ids, cap 64", total)
	}
}
