package hv

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

func TestShardProducers(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3, 4, 7} {
		for _, count := range []int{1, 3, 4, 10} {
			seen := make([]int, n)
			for i := range count {
				c := Config{Producers: n, Shard: engine.Shard{Index: i, Count: count}}
				for _, p := range c.mine() {
					if p%count != i {
						t.Fatalf("%d producers, shard %d/%d runs producer %d", n, i, count, p)
					}
					seen[p]++
				}
			}
			for p, k := range seen {
				if k != 1 {
					t.Fatalf("%d producers in %d shards: producer %d runs %d times", n, count, p, k)
				}
			}
		}
	}
}

// TestEngineConfigOfAShard: a shard's schedule holds exactly its
// producers' messages, and a shard left without a producer is refused.
func TestEngineConfigOfAShard(t *testing.T) {
	t.Parallel()
	cfg := Config{Addr: "127.0.0.1:1", Producers: 5, Messages: 7, Size: 1024, Interval: 10 * time.Millisecond, RunID: "s",
		Shard: engine.Shard{Index: 1, Count: 3}}
	ec, tr, err := EngineConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched := ec.Load.(*engine.Schedule)
	if sched.Total() != 2*7 || ec.Pool != 2*WorkersPerProducer || len(tr.mine) != 2 {
		t.Fatalf("shard 1/3 of 5 producers: %d messages, pool %d, producers %v", sched.Total(), ec.Pool, tr.mine)
	}
	for k := range sched.Total() {
		if p := sched.Seq(k) % 5; p != 1 && p != 4 {
			t.Errorf("message %d is producer %d's", k, p)
		}
	}
	cfg.Shard = engine.Shard{Index: 5, Count: 6}
	if _, _, err := EngineConfig(cfg); err == nil || !strings.Contains(err.Error(), "none of the 5 producers") {
		t.Errorf("a shard without producers: %v", err)
	}
}
