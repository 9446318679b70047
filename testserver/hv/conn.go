package hv

import (
	"crypto/tls"
	"errors"
	"math"
	"net"
	"time"
)

// conn is one client connection being read.
type conn struct {
	s      *Server
	c      net.Conn
	client string
	reader frameReader
	dec    decoder
	msg    Message
	// rate limiting: bytes read since start, and when reading began.
	read  int64
	begin time.Time
}

// serve reads frames until the client leaves, breaks the framing or idles.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	defer s.untrack(c)
	defer c.Close()
	k := &conn{s: s, c: c, client: c.RemoteAddr().String(), reader: frameReader{max: s.opts.MaxPayload}}
	k.msg.Client = k.client
	s.st.connected()
	cause := k.run()
	s.st.disconnected(cause)
	if cause != disconnectClosed {
		s.logf("hv: client %s disconnected: %s", k.client, cause)
	}
}

// run returns why the connection ended.
func (k *conn) run() string {
	if tc, ok := k.c.(*tls.Conn); ok {
		k.deadline()
		if err := tc.Handshake(); err != nil {
			k.s.st.rejected(RejectHandshake)
			return RejectHandshake
		}
	}
	bufSize := 64 << 10
	if r := k.s.opts.ReadRate; r > 0 {
		bufSize = int(min(int64(bufSize), max(r/20, 512)))
	}
	buf := make([]byte, bufSize)
	k.begin = time.Now()
	for {
		k.deadline()
		n, err := k.c.Read(buf)
		if n > 0 {
			k.s.st.bytes(n)
			k.reader.write(buf[:n])
			if cause := k.frames(); cause != "" {
				return cause
			}
			k.throttle(n)
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return disconnectIdle
			}
			return disconnectClosed // EOF, a reset, or the emulator closing
		}
	}
}

func (k *conn) deadline() {
	if t := k.s.opts.IdleTimeout; t > 0 {
		k.c.SetReadDeadline(time.Now().Add(t))
	}
}

// throttle sleeps so that the connection is read at ReadRate at most.
func (k *conn) throttle(n int) {
	r := k.s.opts.ReadRate
	if r <= 0 {
		return
	}
	k.read += int64(n)
	due := k.begin.Add(time.Duration(float64(k.read) / float64(r) * float64(time.Second)))
	if d := time.Until(due); d > 0 {
		time.Sleep(d)
	}
}

// frames handles every complete frame; a non-empty result is the cause
// to disconnect for.
func (k *conn) frames() string {
	for {
		f, ok, err := k.reader.next()
		switch {
		case errors.Is(err, errMarker):
			k.s.st.rejected(RejectMarker)
			return RejectMarker
		case errors.Is(err, errTooBig):
			k.s.st.rejected(RejectTooBig)
			return RejectTooBig
		case errors.Is(err, errNegative):
			k.s.st.rejected(RejectUnexpected)
			return RejectUnexpected
		case !ok:
			return ""
		}
		if cause := k.handle(f); cause != "" {
			k.s.st.rejected(cause)
			return cause
		}
	}
}

// handle counts one frame and passes it on when it is valid and routed,
// in the collector's order: frame checks, protobuf decoding (travel time
// recorded for every decoded message), header validation, routing. A
// non-empty result is the cause to disconnect for.
func (k *conn) handle(f frame) string {
	st := k.s.st
	if l := k.s.limit; l != nil {
		time.Sleep(l.Reserve().Delay()) // the frames behind it wait in the socket
	}
	st.received(len(f.payload))
	if !f.usable() {
		st.dropped(DropInvalid)
		return ""
	}
	h, ok := k.dec.decode(f.payload)
	if !ok {
		st.dropped(DropInvalid)
		return ""
	}
	now := k.s.opts.Now()
	if !travelFits(h.lastEpochMicrosec, now) {
		return RejectUnexpected
	}
	st.travelled(h.lastEpochMicrosec, now)
	if !validHeader(h) {
		st.dropped(DropInvalid)
		return ""
	}
	key := h.domain
	if key == "stndDefined" {
		key = h.stndDefinedNamespace
	}
	topic, ok := k.s.opts.Routes[key]
	if !ok {
		st.dropped(DropRouteNotFound)
		return ""
	}
	st.accepted(k.client, h.sourceName, h.eventID, topic)
	if fn := k.s.opts.OnMessage; fn != nil {
		k.msg.Domain, k.msg.Topic, k.msg.EventID, k.msg.SourceName = h.domain, topic, h.eventID, h.sourceName
		k.msg.Payload, k.msg.Received = f.payload, now
		fn(&k.msg)
	}
	return ""
}

// maxTimerUs is the longest duration, either way, the collector's timer
// takes: it records in nanoseconds, a signed 64-bit count.
const maxTimerUs = math.MaxInt64 / 1000

// travelFits reports whether the collector can record the travel time of
// a message stamped lastEpochMicrosec (read as a signed number) and
// received at now. It cannot when the two lie more than about 292 years
// apart: converting the duration to nanoseconds overflows, and the error
// ends the client's stream.
func travelFits(lastEpochMicrosec uint64, now time.Time) bool {
	stamp, at := int64(lastEpochMicrosec), now.UnixMicro()
	return stamp >= at-maxTimerUs && stamp <= at+maxTimerUs
}
