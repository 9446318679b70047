package hv

import (
	"testing"

	"github.com/vesload/vesload/loadgen"
)

func TestShardProducers(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3, 4, 7} {
		for _, count := range []int{1, 3, 4, 10} {
			seen := make([]int, n)
			for i := range count {
				c := Config{Producers: n, Shard: loadgen.Shard{Index: i, Count: count}}
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
