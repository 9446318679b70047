package rest

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

// rawServer answers every request on 127.0.0.1 with answer's bytes,
// sending the first headLen of them, then the rest after pause: the test
// knows exactly what went on the wire and when the first byte left. It
// records the size of each request it read, headers included.
type rawServer struct {
	ln       net.Listener
	answer   []byte
	headLen  int
	pause    time.Duration
	wg       sync.WaitGroup
	mu       sync.Mutex
	reqLens  []int
	accepted int // connections
}

func startRawServer(t *testing.T, answer string, headLen int, pause time.Duration) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, answer: []byte(answer), headLen: headLen, pause: pause}
	s.wg.Add(1)
	go s.accept()
	t.Cleanup(func() {
		_ = ln.Close()
		s.wg.Wait()
	})
	return s
}

func (s *rawServer) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.accepted++
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(c)
	}
}

func (s *rawServer) serve(c net.Conn) {
	defer s.wg.Done()
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		n, length := 0, 0
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			n += len(line)
			if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
			if line == "\r\n" {
				break
			}
		}
		if _, err := io.CopyN(io.Discard, br, int64(length)); err != nil {
			return
		}
		s.mu.Lock()
		s.reqLens = append(s.reqLens, n+length)
		s.mu.Unlock()
		if _, err := c.Write(s.answer[:s.headLen]); err != nil {
			return
		}
		time.Sleep(s.pause)
		if _, err := c.Write(s.answer[s.headLen:]); err != nil {
			return
		}
	}
}

// The outcome counts the bytes on the wire, headers included (JMeter's
// bytes and sentBytes), the time to connect only for the request that
// opened its connection (JMeter's Connect), and the first byte of the
// answer apart from its last (JMeter's Latency).
func TestOutcomeCountsTheWire(t *testing.T) {
	t.Parallel()
	const answer = "HTTP/1.1 202 Accepted\r\nServer: raw\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nAccepted"
	const pause = 60 * time.Millisecond
	head := strings.Index(answer, "Content-Type")
	tests := []struct {
		name      string
		keepAlive bool
		connects  []bool // whether each request opened its connection
	}{
		{"keep-alive: the first request connects", true, []bool{true, false, false}},
		{"a connection per request", false, []bool{true, true, true}},
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startRawServer(t, answer, head, pause)
			url := "http://" + srv.ln.Addr().String() + "/eventListener/v7"
			tr, err := New(Options{URL: url, Pool: 1, Timeout: 5 * time.Second, KeepAlive: tc.keepAlive, Kinds: []Kind{{URL: url}}})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			snd, release := tr.NewSender()
			defer release()
			body := []byte(`{"event":{}}`)
			for i, connects := range tc.connects {
				var o transport.Outcome
				snd.Send(&transport.Request{Seq: int64(i), Body: body}, &o)
				if o.Class != transport.OK || o.Code != 202 {
					t.Fatalf("request %d: class %v code %d", i, o.Class, o.Code)
				}
				if o.BytesRecv != int64(len(answer)) {
					t.Errorf("request %d: %d bytes received, want %d (headers and body)", i, o.BytesRecv, len(answer))
				}
				srv.mu.Lock()
				sent := srv.reqLens[i]
				srv.mu.Unlock()
				if o.BytesSent != int64(sent) {
					t.Errorf("request %d: %d bytes sent, the server read %d", i, o.BytesSent, sent)
				}
				if got := o.Connect > 0; got != connects {
					t.Errorf("request %d: connect %v, want one: %v", i, o.Connect, connects)
				}
				if o.Connect > o.Done.Sub(o.Written) {
					t.Errorf("request %d: connect %v longer than the exchange %v", i, o.Connect, o.Done.Sub(o.Written))
				}
				ttfb, total := o.FirstByte.Sub(o.Written), o.Done.Sub(o.Written)
				if o.FirstByte.IsZero() || ttfb <= 0 || total-ttfb < pause*3/4 {
					t.Errorf("request %d: first byte after %v, last after %v: want them %v apart", i, ttfb, total, pause)
				}
			}
		})
	}
}

// Each sender keeps a connection of its own: two senders taking turns on
// kept-alive connections open two, each connects once, and each counts
// its own exchanges. An answer that closes its connection makes the next
// request of that sender connect again.
func TestSendersOwnTheirConnections(t *testing.T) {
	t.Parallel()
	const answer = "HTTP/1.1 202 Accepted\r\nContent-Length: 8\r\n\r\nAccepted"
	const closing = "HTTP/1.1 202 Accepted\r\nConnection: close\r\nContent-Length: 8\r\n\r\nAccepted"
	tests := []struct {
		name     string
		answer   string
		connects []bool // whether each turn (sender 0, 1, 0, 1, …) opened its connection
		conns    int
	}{
		{"kept alive", answer, []bool{true, true, false, false, false, false}, 2},
		{"closed by the answer", closing, []bool{true, true, true, true}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startRawServer(t, tc.answer, len(tc.answer), 0)
			url := "http://" + srv.ln.Addr().String() + "/eventListener/v7"
			tr, err := New(Options{URL: url, Pool: 2, Timeout: 5 * time.Second, KeepAlive: true, Kinds: []Kind{{URL: url}}})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			var snd [2]transport.Sender
			for i := range snd {
				s, release := tr.NewSender()
				defer release()
				snd[i] = s
			}
			for i, connects := range tc.connects {
				var o transport.Outcome
				snd[i%2].Send(&transport.Request{Seq: int64(i), Body: []byte(`{"event":{}}`)}, &o)
				if o.Class != transport.OK || o.BytesRecv != int64(len(tc.answer)) {
					t.Fatalf("turn %d: class %v, %d bytes received of %d", i, o.Class, o.BytesRecv, len(tc.answer))
				}
				if got := o.Connect > 0; got != connects {
					t.Errorf("turn %d: connect %v, want one: %v", i, o.Connect, connects)
				}
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if srv.accepted != tc.conns {
				t.Errorf("the server accepted %d connections, want %d", srv.accepted, tc.conns)
			}
		})
	}
}

// A request that reached no connection counts nothing on the wire.
func TestOutcomeOfARefusedConnection(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	url := "http://" + addr + "/x"
	tr, err := New(Options{URL: url, Pool: 1, Timeout: time.Second, KeepAlive: true, Kinds: []Kind{{URL: url}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	snd, release := tr.NewSender()
	defer release()
	var o transport.Outcome
	o.BytesSent, o.Connect = 99, time.Second
	snd.Send(&transport.Request{Body: []byte("{}")}, &o)
	if o.Class != transport.Refused || o.BytesSent != 0 || o.BytesRecv != 0 || o.Connect != 0 || !o.FirstByte.IsZero() {
		t.Errorf("outcome %+v: want conn_refused with nothing counted", o)
	}
}
