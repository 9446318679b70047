package delivery

import (
	"encoding/binary"
	"fmt"
)

// Acceptance is the accepted half of a tally kept where the requests are
// answered, for a follower that runs in a process of its own: the run
// marks each request answered 2xx (Accept, allocation-free, safe from any
// goroutine) and hands the bitmap over once it has ended (Bytes,
// Tally.SetAccepted), so that lost though accepted stays exact per event.
type Acceptance struct {
	bits   bitset
	batch  uint64
	events uint64
}

// NewAcceptance sizes the bitmap for events events of batch per request.
func NewAcceptance(events uint64, batch int) *Acceptance {
	return &Acceptance{bits: newBitset(events), batch: uint64(max(batch, 1)), events: events}
}

// Accept marks request seq's events as answered 2xx.
func (a *Acceptance) Accept(seq int64) { a.bits.setRequest(seq, a.batch, a.events) }

// setRequest marks the events of request seq, batch a request, that lie
// below events: the one rule of which events a request carries, for the
// tally kept beside the follower and for an Acceptance alike.
func (b *bitset) setRequest(seq int64, batch, events uint64) {
	if seq < 0 {
		return
	}
	first := uint64(seq) * batch
	for n := first; n < first+batch && n < events; n++ {
		b.set(n)
	}
}

// Bytes encodes the bitmap, little-endian 64-bit words.
func (a *Acceptance) Bytes() []byte { return a.bits.appendBytes(nil) }

// appendBytes appends the set's words, little-endian.
func (b *bitset) appendBytes(dst []byte) []byte {
	for i := range b.words {
		dst = binary.LittleEndian.AppendUint64(dst, b.words[i].Load())
	}
	return dst
}

// SetAccepted adds the requests an Acceptance of the same size marked
// (its Bytes) to the tally's accepted events.
func (t *Tally) SetAccepted(data []byte) error {
	if len(data) != len(t.accepted.words)*8 {
		return fmt.Errorf("delivery: an accepted bitmap of %d bytes for %d events (want %d)", len(data), t.cfg.Events, len(t.accepted.words)*8)
	}
	for i := range t.accepted.words {
		t.accepted.words[i].Or(binary.LittleEndian.Uint64(data[i*8:]))
	}
	return nil
}
