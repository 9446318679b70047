package wtp

import "testing"

// BenchmarkFrame is the per-message cost of encoding an 8 KiB VesEvent
// with its WTP header (the producers' hot path): 0 allocs/op.
func BenchmarkFrame(b *testing.B) {
	enc, err := NewEncoder(Source{RunID: "k3Jf9", ReportingEntityName: "vesload", SourceName: "vesload-hv-0"}, 8192)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(8192 + HeaderLen)
	var i uint64
	for b.Loop() {
		i++
		if _, err := enc.Frame(Message{GlobalSeq: i, Sequence: uint32(i), EpochMicros: 1_764_590_000_000_000 + i*10_000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode is the emulator's per-message cost: framing and reading
// the header.
func BenchmarkDecode(b *testing.B) {
	enc, _ := NewEncoder(Source{RunID: "k3Jf9", SourceName: "vesload-hv-0"}, 8192)
	f, _ := enc.Frame(Message{GlobalSeq: 1, Sequence: 1, EpochMicros: 1})
	d := NewDecoder(0)
	b.ReportAllocs()
	b.SetBytes(int64(len(f)))
	for b.Loop() {
		d.Write(f)
		fr, ok, err := d.Next()
		if !ok || err != nil {
			b.Fatal(err)
		}
		if _, _, err := DecodeEvent(fr.Payload); err != nil {
			b.Fatal(err)
		}
	}
}
