package wtp

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The WTP header (ONAP's WTP.asn): every value big-endian.
const (
	// HeaderLen is the size of a frame header in bytes.
	HeaderLen = 12
	// Magic is the marker byte that starts every frame; a collector
	// disconnects a client that sends anything else.
	Magic = 0xAA
	// VersionMajor and VersionMinor are the interface version this
	// package speaks (1.0).
	VersionMajor = 1
	VersionMinor = 0
	// PayloadVesEvent is the payload id of a protobuf VesEvent (0x0000
	// means undefined).
	PayloadVesEvent = 0x0001
	// MaxPayload is the largest payload the collector accepts (1 MiB);
	// a longer one disconnects the client.
	MaxPayload = 1 << 20
)

// Header is a decoded WTP frame header.
type Header struct {
	Magic         byte
	VersionMajor  byte
	VersionMinor  byte
	PayloadID     uint16
	PayloadLength uint32
}

// AppendHeader appends the header of a VesEvent frame with a payload of n
// bytes to dst.
func AppendHeader(dst []byte, n int) []byte {
	dst = append(dst, Magic, VersionMajor, VersionMinor, 0, 0, 0)
	dst = binary.BigEndian.AppendUint16(dst, PayloadVesEvent)
	return binary.BigEndian.AppendUint32(dst, uint32(n))
}

// ParseHeader decodes the first HeaderLen bytes of b. It checks nothing
// but the length: what a receiver does with a wrong marker or version is
// the receiver's policy (see Decoder).
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen {
		return Header{}, fmt.Errorf("wtp header: %d bytes, want %d", len(b), HeaderLen)
	}
	return Header{
		Magic:         b[0],
		VersionMajor:  b[1],
		VersionMinor:  b[2],
		PayloadID:     binary.BigEndian.Uint16(b[6:8]),
		PayloadLength: binary.BigEndian.Uint32(b[8:12]),
	}, nil
}

// Errors after which a collector closes the connection: the stream can no
// longer be framed.
var (
	// ErrBadMagic: the first byte of a frame is not 0xAA.
	ErrBadMagic = errors.New("wtp: invalid wire frame marker")
	// ErrTooBig: the header announces a payload over MaxPayload.
	ErrTooBig = errors.New("wtp: payload exceeds 1 MiB")
)

// Skip reasons: a frame that is well framed but not usable is skipped and
// the stream goes on, as the collector does.
const (
	SkipNone      = ""
	SkipVersion   = "unsupported_version"
	SkipPayloadID = "unsupported_payload_type"
)

// Frame is one frame read from a stream. Payload points into the
// decoder's buffer and is valid until the next call to Next.
type Frame struct {
	Header  Header
	Payload []byte
	// Skip is empty for a frame to process, else why it is to be skipped
	// (wrong major version, payload id other than VesEvent).
	Skip string
}

// Decoder cuts a byte stream into frames. Bytes are fed in with Write as
// they arrive; Next returns each complete frame, so a frame split across
// reads is buffered until its last byte is there. It is not safe for
// concurrent use.
type Decoder struct {
	buf   []byte
	start int // first unread byte of buf
	max   int // largest payload accepted
}

// NewDecoder returns a decoder that accepts payloads up to maxPayload
// bytes (MaxPayload when 0 or larger).
func NewDecoder(maxPayload int) *Decoder {
	if maxPayload <= 0 || maxPayload > MaxPayload {
		maxPayload = MaxPayload
	}
	return &Decoder{max: maxPayload}
}

// Write appends stream bytes; it never fails.
func (d *Decoder) Write(p []byte) (int, error) {
	if d.start > 0 && d.start == len(d.buf) {
		d.buf, d.start = d.buf[:0], 0
	}
	if d.start > 0 && len(d.buf)+len(p) > cap(d.buf) {
		n := copy(d.buf, d.buf[d.start:])
		d.buf, d.start = d.buf[:n], 0
	}
	d.buf = append(d.buf, p...)
	return len(p), nil
}

// Buffered is the number of bytes received but not yet returned in a
// frame.
func (d *Decoder) Buffered() int { return len(d.buf) - d.start }

// Next returns the next complete frame. ok is false when more bytes are
// needed. An error (ErrBadMagic, ErrTooBig) means the stream is broken:
// the caller disconnects.
func (d *Decoder) Next() (f Frame, ok bool, err error) {
	rest := d.buf[d.start:]
	if len(rest) == 0 {
		return Frame{}, false, nil
	}
	if rest[0] != Magic {
		return Frame{}, false, ErrBadMagic
	}
	if len(rest) < HeaderLen {
		return Frame{}, false, nil
	}
	h, _ := ParseHeader(rest)
	if h.PayloadLength > uint32(d.max) {
		return Frame{}, false, ErrTooBig
	}
	end := HeaderLen + int(h.PayloadLength)
	if len(rest) < end {
		return Frame{}, false, nil
	}
	d.start += end
	f = Frame{Header: h, Payload: rest[HeaderLen:end:end]}
	switch {
	case h.VersionMajor != VersionMajor:
		f.Skip = SkipVersion
	case h.PayloadID != PayloadVesEvent:
		f.Skip = SkipPayloadID
	}
	return f, true, nil
}
