package ves

import (
	"strconv"
	"time"
)

// segKind says what a segment appends at render time.
type segKind uint8

const (
	segStatic       segKind = iota // lit, verbatim
	segSeq                         // the sequence number n
	segCounter                     // n+1, JMeter's 1-based __counter
	segUUID                        // version 4 UUID derived from the run key, salt and n
	segEpochMicros                 // due, microseconds since the epoch
	segEpochMillis                 // due, milliseconds since the epoch
	segEpochSeconds                // due, seconds since the epoch
	segEventTime                   // due as UTC ISO 8601 with microseconds
	segRandom                      // integer in [lo, lo+span-1] derived from the run key, salt and n
	segRow                         // column lo of data row n mod rows
)

// segment is one piece of a compiled body. pos is where it came from in
// the template source, so a compile-time JSON check can point at the line
// and column that produced a bad byte.
type segment struct {
	kind segKind
	lit  []byte
	lo   int64
	span uint64 // segRandom: number of values; 0 = the whole int64 range
	salt uint64 // segRandom, segUUID: tells two placeholders of a body apart
	pos  int    // source offset of the literal or placeholder
	// verbatim marks a literal copied unchanged from the source starting at
	// pos, so an offset inside it maps back to the source exactly.
	verbatim bool
}

// program is a compiled body: segments plus the run key that seeds derived
// values. It is immutable once built, which is what makes rendering safe
// from many goroutines at once.
type program struct {
	segs []segment
	key  uint64
	rows [][][]byte // data rows (columns as bytes), or nil
}

// appendTo renders the program for sequence number n due at due. It only
// appends bytes and formats integers: no allocation once dst is large
// enough.
func (p *program) appendTo(dst []byte, n uint64, due time.Time) []byte {
	return p.appendToRow(dst, n, n, due)
}

// appendToRow is appendTo with data row row mod rows bound, which is n
// itself unless the rows go to workers.
func (p *program) appendToRow(dst []byte, n, row uint64, due time.Time) []byte {
	for i := range p.segs {
		dst = p.appendSegment(dst, &p.segs[i], n, row, due)
	}
	return dst
}

func (p *program) appendSegment(dst []byte, s *segment, n, row uint64, due time.Time) []byte {
	switch s.kind {
	case segStatic:
		return append(dst, s.lit...)
	case segSeq:
		return strconv.AppendUint(dst, n, 10)
	case segCounter:
		return strconv.AppendUint(dst, n+1, 10)
	case segUUID:
		return appendUUID(dst, p.key, s.salt, n)
	case segEpochMicros:
		return strconv.AppendInt(dst, due.UnixMicro(), 10)
	case segEpochMillis:
		return strconv.AppendInt(dst, due.UnixMilli(), 10)
	case segEpochSeconds:
		return strconv.AppendInt(dst, due.Unix(), 10)
	case segEventTime:
		return appendEventTime(dst, due)
	case segRandom:
		return strconv.AppendInt(dst, boundedRandom(p.key, s.salt, n, s.lo, s.span), 10)
	case segRow:
		return append(dst, p.rows[row%uint64(len(p.rows))][s.lo]...)
	}
	return dst
}

// merged returns the segments with runs of literals joined, so a render
// does one append per run instead of one per source fragment. Positions
// of merged literals are kept from the first fragment and lose their
// verbatim mark: they are only used for error messages before merging.
func merged(segs []segment) []segment {
	out := make([]segment, 0, len(segs))
	for _, s := range segs {
		if s.kind == segStatic && len(s.lit) == 0 {
			continue
		}
		if last := len(out) - 1; s.kind == segStatic && last >= 0 && out[last].kind == segStatic {
			joined := make([]byte, 0, len(out[last].lit)+len(s.lit))
			joined = append(append(joined, out[last].lit...), s.lit...)
			out[last].lit = joined
			out[last].verbatim = false
			continue
		}
		out = append(out, s)
	}
	return out
}

// appendEventTime appends due in UTC as 2006-01-02T15:04:05.000000Z, the
// form 3GPP notifications use for eventTime, without time.Format's layout
// parsing.
func appendEventTime(dst []byte, due time.Time) []byte {
	t := due.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year < 0 {
		dst = append(dst, '-')
		year = -year
	}
	dst = appendPadded(dst, year, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int(month), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, day, 2)
	dst = append(dst, 'T')
	dst = appendPadded(dst, hour, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, minute, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, sec, 2)
	dst = append(dst, '.')
	dst = appendPadded(dst, t.Nanosecond()/1000, 6)
	return append(dst, 'Z')
}

// appendPadded appends the non-negative v in decimal, zero-padded to width.
func appendPadded(dst []byte, v, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v >= 10 || width > 1 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		width--
	}
	i--
	buf[i] = byte('0' + v)
	return append(dst, buf[i:]...)
}
