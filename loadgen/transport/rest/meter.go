package rest

import (
	"net"
	"time"
)

// wire is a sender's connection as its buffered reader and writer see it:
// it counts the bytes of the exchange in progress, headers included, and
// notes when the first byte of the answer arrived (docs/ARCHITECTURE.md,
// "Transport"). A connection belongs to one sender, which reads the
// figures where they happen: no lock, no atomic, no allocation.
type wire struct {
	conn      net.Conn
	sent      int64
	recv      int64
	firstByte time.Time // zero until a byte of the answer arrives
}

// begin starts counting a new exchange.
func (w *wire) begin() {
	w.sent, w.recv, w.firstByte = 0, 0, time.Time{}
}

// Write counts the bytes written.
func (w *wire) Write(b []byte) (int, error) {
	n, err := w.conn.Write(b)
	w.sent += int64(n)
	return n, err
}

// Read counts the bytes read and notes when the first one arrived.
func (w *wire) Read(b []byte) (int, error) {
	n, err := w.conn.Read(b)
	if n > 0 {
		if w.recv == 0 {
			w.firstByte = time.Now()
		}
		w.recv += int64(n)
	}
	return n, err
}
