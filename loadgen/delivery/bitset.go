package delivery

import (
	"math/bits"
	"sync/atomic"
)

// bitset is a fixed-size set of event numbers: one bit per event, so that
// following a run costs n/8 bytes whatever its duration. Set is safe for
// concurrent use with itself; reads of the whole set (count, andNot) are
// for when the writers are done.
type bitset struct {
	words []atomic.Uint64
	n     uint64
}

func newBitset(n uint64) bitset {
	return bitset{words: make([]atomic.Uint64, (n+63)/64), n: n}
}

// set adds i and reports whether it was already there. i must be < n.
func (b *bitset) set(i uint64) (was bool) {
	mask := uint64(1) << (i % 64)
	return b.words[i/64].Or(mask)&mask != 0
}

// count returns the number of members.
func (b *bitset) count() int64 {
	var c int
	for i := range b.words {
		c += bits.OnesCount64(b.words[i].Load())
	}
	return int64(c)
}

// andNotCount returns |b \ o| (the two sets have the same size).
func (b *bitset) andNotCount(o *bitset) int64 {
	var c int
	for i := range b.words {
		c += bits.OnesCount64(b.words[i].Load() &^ o.words[i].Load())
	}
	return int64(c)
}

// bytes is the memory the set holds.
func (b *bitset) bytes() int { return len(b.words) * 8 }
