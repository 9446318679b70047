package wtp

import (
	"bytes"
	"errors"
	"testing"
)

func frameOf(major byte, id uint16, payload []byte) []byte {
	b := []byte{Magic, major, 0, 0, 0, 0, byte(id >> 8), byte(id)}
	n := len(payload)
	b = append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	return append(b, payload...)
}

// collect feeds stream to a decoder in chunks of step bytes and returns
// the payloads and skip reasons of the frames, and the first error.
func collect(stream []byte, step int) (payloads []string, skips []string, err error) {
	d := NewDecoder(0)
	for len(stream) > 0 {
		n := min(step, len(stream))
		d.Write(stream[:n])
		stream = stream[n:]
		for {
			f, ok, err := d.Next()
			if err != nil {
				return payloads, skips, err
			}
			if !ok {
				break
			}
			payloads = append(payloads, string(f.Payload))
			skips = append(skips, f.Skip)
		}
	}
	return payloads, skips, nil
}

func TestDecoderFrames(t *testing.T) {
	stream := bytes.Join([][]byte{
		frameOf(1, 1, []byte("first")),
		frameOf(2, 1, []byte("v2")),
		frameOf(1, 0, []byte("undefined")),
		frameOf(1, 1, nil),
		frameOf(1, 1, bytes.Repeat([]byte("z"), 300)),
	}, nil)
	for _, step := range []int{1, 5, 11, 12, 13, 100, len(stream)} {
		got, skips, err := collect(stream, step)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		want := []string{"first", "v2", "undefined", "", string(bytes.Repeat([]byte("z"), 300))}
		wantSkips := []string{SkipNone, SkipVersion, SkipPayloadID, SkipNone, SkipNone}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d frames, want %d", step, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] || skips[i] != wantSkips[i] {
				t.Errorf("step %d frame %d: %q skip %q, want %q skip %q", step, i, got[i], skips[i], want[i], wantSkips[i])
			}
		}
	}
}

func TestDecoderBrokenStreams(t *testing.T) {
	tooBig := []byte{Magic, 1, 0, 0, 0, 0, 0, 1, 0, 0x10, 0, 1} // 1 MiB + 1
	for _, c := range []struct {
		name   string
		stream []byte
		frames int
		err    error
	}{
		{"bad marker first", []byte{0xAB, 1, 0}, 0, ErrBadMagic},
		{"bad marker after a frame", append(frameOf(1, 1, []byte("ok")), 0x00), 1, ErrBadMagic},
		{"payload over 1 MiB", tooBig, 0, ErrTooBig},
		{"exactly 1 MiB announced is fine until it arrives", []byte{Magic, 1, 0, 0, 0, 0, 0, 1, 0, 0x10, 0, 0}, 0, nil},
	} {
		got, _, err := collect(c.stream, 1)
		if !errors.Is(err, c.err) || len(got) != c.frames {
			t.Errorf("%s: %d frames, err %v; want %d, %v", c.name, len(got), err, c.frames, c.err)
		}
	}
}

func TestDecoderSmallerLimit(t *testing.T) {
	d := NewDecoder(10)
	d.Write(frameOf(1, 1, make([]byte, 11)))
	if _, _, err := d.Next(); !errors.Is(err, ErrTooBig) {
		t.Errorf("11-byte payload with a 10-byte limit: %v", err)
	}
}

func TestDecoderReusesItsBuffer(t *testing.T) {
	enc, err := NewEncoder(Source{RunID: "r", SourceName: "s"}, 8192)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := enc.Frame(Message{GlobalSeq: 1, Sequence: 1, EpochMicros: 1})
	d := NewDecoder(0)
	chunk := 3000
	allocs := testing.AllocsPerRun(200, func() {
		for off := 0; off < len(f); off += chunk {
			d.Write(f[off:min(off+chunk, len(f))])
			for {
				fr, ok, err := d.Next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if _, _, err := DecodeEvent(fr.Payload); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	if allocs != 0 || d.Buffered() != 0 {
		t.Errorf("%v allocations per frame, %d bytes left over; want 0, 0", allocs, d.Buffered())
	}
}

func TestDecodeEventRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		payload []byte
	}{
		{"truncated tag", []byte{0x0a}},
		{"length past the end", []byte{0x0a, 0x05, 1}},
		{"no header", []byte{0x12, 0x01, 'x'}},
		{"header version as a varint", []byte{0x0a, 0x02, 0x08, 0x00}},
	} {
		if _, _, err := DecodeEvent(c.payload); err == nil {
			t.Errorf("%s: decoded without error", c.name)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	enc, err := NewEncoder(Source{RunID: "r", SourceName: "s"}, 300)
	if err != nil {
		f.Fatal(err)
	}
	fr, _ := enc.Frame(Message{GlobalSeq: 1, Sequence: 1, EpochMicros: 1})
	f.Add(append([]byte(nil), fr...), uint8(7))
	f.Add(frameOf(2, 1, []byte{0x0a, 0x00}), uint8(1))
	f.Add([]byte{Magic, 1, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff}, uint8(3))
	f.Fuzz(func(t *testing.T, stream []byte, step uint8) {
		d := NewDecoder(4096)
		s := max(int(step), 1)
		total := 0
		for off := 0; off < len(stream); off += s {
			d.Write(stream[off:min(off+s, len(stream))])
			for {
				fr, ok, err := d.Next()
				if err != nil || !ok {
					if err != nil {
						return
					}
					break
				}
				if int(fr.Header.PayloadLength) != len(fr.Payload) || len(fr.Payload) > 4096 {
					t.Fatalf("frame announces %d bytes, carries %d", fr.Header.PayloadLength, len(fr.Payload))
				}
				total += HeaderLen + len(fr.Payload)
				_, _, _ = DecodeEvent(fr.Payload)
			}
		}
		if total+d.Buffered() != len(stream) {
			t.Fatalf("%d bytes in frames + %d buffered != %d fed", total, d.Buffered(), len(stream))
		}
	})
}
