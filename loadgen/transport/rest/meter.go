package rest

import (
	"net"
	"sync/atomic"
	"time"
)

// exchangeRing is how many exchanges of one connection keep their figures
// at once. A sender reads its exchange's figures just after the client
// returns the connection to the pool; the ring lets the next users of the
// connection count theirs meanwhile without overwriting them.
const exchangeRing = 4

// exchange holds the wire figures of one request and response on a
// connection, as JMeter reports them (docs/ARCHITECTURE.md, "Transport"):
// the bytes written and read, headers included; the time to open the
// connection, for the first exchange on it only; and when the first byte
// of the answer arrived. It is the connection's LocalAddr during the
// exchange, which the client stores in the response: that is how a
// sender finds the figures of the connection it was given, without a map
// or an allocation. The fields are atomic because the connection may
// already serve another sender when this one reads them.
type exchange struct {
	addr      net.Addr
	sent      atomic.Int64
	recv      atomic.Int64
	connect   atomic.Int64 // ns
	firstByte atomic.Int64 // Unix ns; 0 until a byte arrives
}

// Network implements net.Addr with the connection's local address.
func (x *exchange) Network() string { return x.addr.Network() }

// String implements net.Addr with the connection's local address.
func (x *exchange) String() string { return x.addr.String() }

// meteredConn counts the bytes and times of each exchange on a
// connection. The client asks a connection for its LocalAddr once per
// request, when it takes the connection for that request: that call
// begins a new exchange.
type meteredConn struct {
	net.Conn
	ring   [exchangeRing]exchange
	n      uint64
	cur    *exchange
	opened time.Duration // how long opening the connection took (TLS handshake included)
}

func newMeteredConn(c net.Conn, opened time.Duration) *meteredConn {
	m := &meteredConn{Conn: c, opened: opened}
	addr := c.LocalAddr()
	for i := range m.ring {
		m.ring[i].addr = addr
	}
	return m
}

// LocalAddr begins the next exchange and returns it.
func (m *meteredConn) LocalAddr() net.Addr {
	x := &m.ring[m.n%exchangeRing]
	x.sent.Store(0)
	x.recv.Store(0)
	x.firstByte.Store(0)
	if m.n == 0 {
		x.connect.Store(int64(m.opened))
	} else {
		x.connect.Store(0)
	}
	m.n++
	m.cur = x
	return x
}

// Write counts the bytes written into the current exchange.
func (m *meteredConn) Write(b []byte) (int, error) {
	n, err := m.Conn.Write(b)
	if x := m.cur; x != nil {
		x.sent.Add(int64(n))
	}
	return n, err
}

// Read counts the bytes read into the current exchange and notes when the
// first one arrived.
func (m *meteredConn) Read(b []byte) (int, error) {
	n, err := m.Conn.Read(b)
	if x := m.cur; x != nil && n > 0 {
		if x.recv.Add(int64(n)) == int64(n) {
			x.firstByte.Store(time.Now().UnixNano())
		}
	}
	return n, err
}

// Handshake tells the client that a TLS connection is already
// established (it was, when it was opened), so it is not wrapped again.
func (m *meteredConn) Handshake() error {
	if h, ok := m.Conn.(interface{ Handshake() error }); ok {
		return h.Handshake()
	}
	return nil
}

// figures copies the exchange's figures into o. It reports false when the
// client never took a connection for the request (the dial failed), or
// took one that is not metered.
func figures(a net.Addr, o *exchangeFigures) bool {
	x, ok := a.(*exchange)
	if !ok || x == nil {
		return false
	}
	o.sent, o.recv = x.sent.Load(), x.recv.Load()
	o.connect = time.Duration(x.connect.Load())
	if fb := x.firstByte.Load(); fb > 0 {
		o.firstByte = time.Unix(0, fb)
	} else {
		o.firstByte = time.Time{}
	}
	return true
}

// exchangeFigures is a sender's copy of its exchange.
type exchangeFigures struct {
	sent, recv int64
	connect    time.Duration
	firstByte  time.Time
}
