package rawconn

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/leaktest"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// pair returns a wrapped client connection and the server's end of it,
// both on loopback.
func pair(t *testing.T) (client net.Conn, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			c = nil
		}
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	client = Wrap(c)
	t.Cleanup(func() { client.Close(); s.Close() })
	return client, s.(*net.TCPConn)
}

func TestWrapKeepsWhatIsNotTCP(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := Wrap(a); got != a {
		t.Fatalf("Wrap(pipe) = %T, want the pipe itself", got)
	}
}

func TestWrapUsesRawCallsOnLinux(t *testing.T) {
	c, _ := pair(t)
	_, plain := c.(*net.TCPConn)
	wrapped := !plain
	if want := runtime.GOOS == "linux"; wrapped != want {
		t.Fatalf("wrapped = %v on %s, want %v", wrapped, runtime.GOOS, want)
	}
}

// A write larger than the socket buffers fills them, so the write must wait
// for the poller and resume where it stopped; every byte must arrive once,
// in order.
func TestLargeWriteArrivesWhole(t *testing.T) {
	c, s := pair(t)
	want := make([]byte, 8<<20)
	for i := range want {
		want[i] = byte(i*7 + i>>13)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(s)
		got <- b
	}()
	n, err := c.Write(want)
	if err != nil || n != len(want) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(want))
	}
	c.(interface{ CloseWrite() error }).CloseWrite()
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("server read %d bytes, not the %d written", len(b), len(want))
	}
}

func TestReadReturnsWhatArrives(t *testing.T) {
	c, s := pair(t)
	go func() {
		s.Write([]byte("HTTP/1.1 202 Accepted\r\n"))
		time.Sleep(10 * time.Millisecond) // the client waits in the poller meanwhile
		s.Write([]byte("Content-Length: 0\r\n\r\n"))
		s.CloseWrite()
	}()
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"; string(b) != want {
		t.Fatalf("read %q, want %q", b, want)
	}
}

// The errors must be the ones the net package returns, since the transport
// classifies them with errors.Is and net.Error.
func TestErrorsAreTheNetPackages(t *testing.T) {
	tests := []struct {
		name  string
		do    func(c net.Conn, s *net.TCPConn) error
		check func(error) bool
	}{
		{"end of stream", func(c net.Conn, s *net.TCPConn) error {
			s.Close()
			_, err := c.Read(make([]byte, 16))
			return err
		}, func(err error) bool { return err == io.EOF }},
		{"read deadline", func(c net.Conn, _ *net.TCPConn) error {
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			_, err := c.Read(make([]byte, 16))
			return err
		}, func(err error) bool {
			var ne net.Error
			var op *net.OpError
			return errors.Is(err, os.ErrDeadlineExceeded) && errors.As(err, &ne) && ne.Timeout() &&
				errors.As(err, &op) && op.Op == "read"
		}},
		{"reset by peer", func(c net.Conn, s *net.TCPConn) error {
			s.SetLinger(0)
			s.Close()
			time.Sleep(20 * time.Millisecond) // let the RST arrive
			_, err := c.Read(make([]byte, 16))
			return err
		}, func(err error) bool {
			var op *net.OpError
			return errors.Is(err, syscall.ECONNRESET) && errors.As(err, &op) && op.Op == "read"
		}},
		{"write after reset", func(c net.Conn, s *net.TCPConn) error {
			s.SetLinger(0)
			s.Close()
			time.Sleep(20 * time.Millisecond)
			var err error
			for range 3 { // the first write may still be accepted
				if _, err = c.Write([]byte("x")); err != nil {
					break
				}
			}
			return err
		}, func(err error) bool { return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) }},
		{"read after close", func(c net.Conn, _ *net.TCPConn) error {
			c.Close()
			_, err := c.Read(make([]byte, 16))
			return err
		}, func(err error) bool {
			var op *net.OpError
			return errors.Is(err, net.ErrClosed) && errors.As(err, &op) && op.Op == "read"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s := pair(t)
			if err := tt.do(c, s); !tt.check(err) {
				t.Fatalf("error %v (%T) is not the net package's", err, err)
			}
		})
	}
}

func TestEmptyReadReturnsAtOnce(t *testing.T) {
	c, _ := pair(t)
	if n, err := c.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read(nil) = %d, %v", n, err)
	}
}

// The request path reads and writes once per request: neither may allocate.
func TestReadWriteAllocateNothing(t *testing.T) {
	c, s := pair(t)
	msg := []byte("ping")
	buf := make([]byte, 64)
	echo := make([]byte, 64)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		n, err := s.Read(echo)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write(echo[:n]); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf[:len(msg)]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per write and read, want 0", allocs)
	}
}

// BenchmarkRoundTrip writes a 1 KiB request and reads a short answer over
// loopback, through the net package's connection and through Wrap's: both
// allocate nothing and cost about the same per call in a busy loop. What
// Wrap saves is the runtime's threads waking around each call when the
// process is otherwise idle between requests, which a closed loop in one
// process cannot show; bench/peers.sh measures that.
func BenchmarkRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name string
		wrap func(net.Conn) net.Conn
	}{
		{"net", func(c net.Conn) net.Conn { return c }},
		{"raw", Wrap},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			done := make(chan struct{})
			go func() {
				defer close(done)
				s, err := ln.Accept()
				if err != nil {
					return
				}
				defer s.Close()
				req := make([]byte, 1024)
				answer := []byte("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
				for {
					if _, err := io.ReadFull(s, req); err != nil {
						return
					}
					if _, err := s.Write(answer); err != nil {
						return
					}
				}
			}()
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			c = bc.wrap(c)
			req := make([]byte, 1024)
			answer := make([]byte, 44)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.Write(req); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(c, answer); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			c.Close()
			<-done
		})
	}
}
