package rawconn

import (
	"bytes"
	"io"
	"net"
	"testing"

	"golang.org/x/sys/unix"
)

// dataSegments is how many segments with data c has sent so far.
func dataSegments(t *testing.T, c net.Conn) uint32 {
	t.Helper()
	raw, err := c.(*conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var info *unix.TCPInfo
	var gerr error
	if err := raw.Control(func(fd uintptr) { info, gerr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO) }); err != nil || gerr != nil {
		t.Fatalf("TCP_INFO: %v %v", err, gerr)
	}
	return info.Data_segs_out
}

// Eight 8 KiB frames written with "more follows" on all but the last
// leave as a few large segments, where plain writes on a no-delay socket
// leave as one segment each; the receiver reads the same bytes in order
// either way.
func TestWriteMoreSendsABacklogAsFewSegments(t *testing.T) {
	t.Parallel()
	const frames, size = 8, 8 << 10
	cases := []struct {
		name     string
		more     bool
		min, max uint32
	}{
		{"plain writes", false, frames, 2 * frames},
		{"more follows", true, 1, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, s := pair(t)
			if err := c.(*conn).SetNoDelay(true); err != nil {
				t.Fatal(err)
			}
			mw, ok := c.(MoreWriter)
			if !ok {
				t.Fatalf("%T is no MoreWriter", c)
			}
			var want bytes.Buffer
			before := dataSegments(t, c)
			for i := range frames {
				frame := bytes.Repeat([]byte{byte('a' + i)}, size)
				want.Write(frame)
				if _, err := mw.WriteMore(frame, tc.more && i < frames-1); err != nil {
					t.Fatal(err)
				}
			}
			got := make([]byte, want.Len())
			if _, err := io.ReadFull(s, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatal("the receiver read other bytes than were written")
			}
			if n := dataSegments(t, c) - before; n < tc.min || n > tc.max {
				t.Errorf("%d frames left as %d segments, want %d to %d", frames, n, tc.min, tc.max)
			}
		})
	}
}
