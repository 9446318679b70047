package hv

import (
	"encoding/binary"
	"errors"
)

// The wire frame as the collector reads it (ONAP's WTP.asn): a 12-byte
// header, big-endian, then the payload. The emulator reads it with its
// own code, apart from the producers' encoder, so that a framing mistake
// on one side shows up against the other.
const (
	frameHeaderLen   = 12
	frameMarker      = 0xAA
	frameMajor       = 1      // the only major version accepted
	payloadVesEvent  = 0x0001 // GPB VesEvent
	maxPayloadLength = 1 << 20
)

// MaxPayload is the collector's default largest payload, 1 MiB; a frame
// announcing more disconnects the client.
const MaxPayload = maxPayloadLength

// errMarker and errTooBig break the stream: the client is disconnected
// and counted as rejected. Only a complete header is judged, so a stream
// that ends before 12 bytes arrived breaks nothing (the collector waits
// for the rest of the header and never sees a marker).
var (
	errMarker   = errors.New("invalid wire frame marker")
	errTooBig   = errors.New("payload size exceeds the limit")
	errNegative = errors.New("negative payload size")
)

// frame is one complete frame; payload points into the reader's buffer
// and is valid until the next call to next.
type frame struct {
	major       byte
	payloadType uint16
	payload     []byte
}

// usable reports whether the collector processes the frame: major
// version 1 and a VesEvent payload; others are dropped as invalid.
func (f frame) usable() bool { return f.major == frameMajor && f.payloadType == payloadVesEvent }

// frameReader cuts a byte stream into frames as they complete.
type frameReader struct {
	buf   []byte
	start int // first byte of buf not yet returned
	max   int
}

// write appends bytes read from the connection.
func (r *frameReader) write(p []byte) {
	if r.start == len(r.buf) {
		r.buf, r.start = r.buf[:0], 0
	}
	if r.start > 0 && len(r.buf)+len(p) > cap(r.buf) {
		n := copy(r.buf, r.buf[r.start:])
		r.buf, r.start = r.buf[:n], 0
	}
	r.buf = append(r.buf, p...)
}

// next returns the next complete frame, ok false while bytes are
// missing, or an error that ends the connection.
func (r *frameReader) next() (f frame, ok bool, err error) {
	rest := r.buf[r.start:]
	if len(rest) < frameHeaderLen {
		return frame{}, false, nil
	}
	if rest[0] != frameMarker {
		return frame{}, false, errMarker
	}
	// The length is a signed 32-bit value in the collector: one with the
	// top bit set is negative, passes the size check and the wait for
	// bytes, and fails allocating the payload, which ends the stream as
	// an unexpected error.
	n := binary.BigEndian.Uint32(rest[8:12])
	if int32(n) < 0 {
		return frame{}, false, errNegative
	}
	if n > uint32(r.max) {
		return frame{}, false, errTooBig
	}
	end := frameHeaderLen + int(n)
	if len(rest) < end {
		return frame{}, false, nil
	}
	r.start += end
	return frame{major: rest[1], payloadType: binary.BigEndian.Uint16(rest[6:8]), payload: rest[frameHeaderLen:end:end]}, true, nil
}
