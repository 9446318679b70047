package wtp

import (
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

// Priority is CommonEventHeader.Priority.
type Priority int32

// The priorities of CommonEventHeader (0, PRIORITY_NOT_PROVIDED, fails the
// collector's validation).
const (
	PriorityHigh   Priority = 1
	PriorityMedium Priority = 2
	PriorityNormal Priority = 3
	PriorityLow    Priority = 4
)

// Fixed header values: the GPB header version and the VES listener
// version the collector requires (7.x).
const (
	HeaderVersion   = "1.0"
	ListenerVersion = "7.2"
	// DefaultDomain routes to HV_VES_PERF3GPP in the collector's default
	// configuration.
	DefaultDomain = "perf3gpp"
)

// Source holds what stays the same for every message of one producer.
type Source struct {
	RunID               string // eventId prefix: "<RunID>-<global sequence>"
	Domain              string // DefaultDomain when empty
	EventName           string // derived from Domain when empty
	Priority            Priority
	ReportingEntityName string
	SourceName          string
	NfVendorName        string
}

// Message is what changes from one message to the next.
type Message struct {
	GlobalSeq   uint64 // unique across the producers of a run: the eventId suffix
	Sequence    uint32 // the producer's own message number
	EpochMicros uint64 // start- and lastEpochMicrosec: the message's due time
}

// Shape of the measurement payload. Every MeasValue has the same encoded
// size, so the payload grows in steps of one value and a padding entry in
// eventAddlFlds makes up the rest to the exact size.
const (
	resultsPerValue = 4
	maxValues       = 99999 // the object-instance id has five digits
	padKey          = "padding"
	maxPad          = 100 // keeps the map entry's length in one varint byte
)

// maxHeaderExtra bounds how much the per-message part of the header can
// grow: a 20-digit sequence number, a 5-byte sequence varint and two
// 10-byte timestamps.
const maxHeaderExtra = 20 + 5 + 10 + 10

// Encoder builds WTP frames carrying VesEvents of exactly Size bytes
// (the frame is HeaderLen bytes more). Frame reuses one buffer, so an
// Encoder belongs to one goroutine.
type Encoder struct {
	size             int
	hdrA, hdrB, hdrC []byte // constant header fields around the variable ones
	hdrD             []byte
	idPrefix         []byte
	p3Head, mdcHead  []byte
	miHead           []byte
	values           []byte // the largest number of MeasValues ever needed, tagged
	valueSize        int
	hdr, out         []byte
	plans            []plan
	padBase          int
}

// plan is how a header of hdrLen bytes is completed to the size: n
// MeasValues and a padding value of pad bytes (-1: no padding entry).
// Some sizes cannot be reached by the payload alone (when the eventFields
// length crosses a varint boundary, the total jumps by two): then extra
// adds an empty eventType to the header, two bytes more outside it.
type plan struct {
	hdrLen, n, pad int
	extra          bool
}

// NewEncoder returns an encoder of messages of size bytes for one
// producer. It fails when size is below MinSize or above MaxPayload.
func NewEncoder(src Source, size int) (*Encoder, error) {
	e := &Encoder{size: size}
	e.build(src.withDefaults())
	if min := e.minSize(); size < min || size > MaxPayload {
		return nil, fmt.Errorf("message size %d: want %d to %d bytes for this source", size, min, MaxPayload)
	}
	n := (size / e.valueSize) + 1
	e.values = make([]byte, 0, n*e.valueSize)
	for i := range min(n, maxValues) {
		e.values = appendValue(e.values, i+1)
	}
	e.hdr = make([]byte, 0, len(e.hdrA)+len(e.hdrB)+len(e.hdrC)+len(e.hdrD)+len(e.idPrefix)+maxHeaderExtra+16)
	e.out = make([]byte, 0, HeaderLen+size)
	e.plans = make([]plan, 0, 16)
	return e, nil
}

// MinSize is the smallest message size NewEncoder accepts for src: a
// header with the longest sequence numbers and timestamps and a payload of
// one measurement and an empty padding entry.
func MinSize(src Source) int {
	var e Encoder
	e.build(src.withDefaults())
	return e.minSize()
}

// withDefaults fills what a Source may leave empty.
func (src Source) withDefaults() Source {
	if src.Domain == "" {
		src.Domain = DefaultDomain
	}
	if src.EventName == "" {
		src.EventName = src.Domain + "_vesload"
	}
	if src.Priority == 0 {
		src.Priority = PriorityNormal
	}
	return src
}

// Size is the size of every message (the WTP payload) in bytes.
func (e *Encoder) Size() int { return e.size }

func (e *Encoder) minSize() int {
	h := len(e.hdrA) + len(e.hdrB) + len(e.hdrC) + len(e.hdrD) + len(e.idPrefix) + 2 + maxHeaderExtra + 4
	return e.total(h, 1, 0) // a padding entry, so every shorter header fits too
}

// build encodes the constant parts once.
func (e *Encoder) build(src Source) {
	e.hdrA = protowire.AppendTag(nil, fHdrVersion, protowire.BytesType)
	e.hdrA = protowire.AppendString(e.hdrA, HeaderVersion)
	e.hdrA = appendString(e.hdrA, fHdrDomain, src.Domain)
	e.hdrB = protowire.AppendTag(nil, fHdrPriority, protowire.VarintType)
	e.hdrB = protowire.AppendVarint(e.hdrB, uint64(src.Priority))
	e.hdrC = appendString(nil, fHdrEventName, src.EventName)
	e.hdrD = appendString(nil, fHdrNfVendorName, src.NfVendorName)
	e.hdrD = appendString(e.hdrD, fHdrReportingEntity, src.ReportingEntityName)
	e.hdrD = appendString(e.hdrD, fHdrSourceName, src.SourceName)
	e.hdrD = appendString(e.hdrD, fHdrListenerVersion, ListenerVersion)
	e.idPrefix = append([]byte(src.RunID), '-')

	e.p3Head = appendString(nil, fP3Version, "1.0")
	e.mdcHead = appendString(nil, fMdcFormatVersion, "28.550 2.0")
	e.mdcHead = protowire.AppendTag(e.mdcHead, fMdcGranularity, protowire.VarintType)
	e.mdcHead = protowire.AppendVarint(e.mdcHead, 60)
	e.mdcHead = appendString(e.mdcHead, fMdcUserName, src.SourceName)
	e.mdcHead = appendString(e.mdcHead, fMdcDn, "ManagedElement="+src.SourceName)
	e.mdcHead = appendString(e.mdcHead, fMdcSwVersion, "1.0")

	e.miHead = protowire.AppendTag(nil, fMiIMeasInfoID, protowire.VarintType)
	e.miHead = protowire.AppendVarint(e.miHead, 1)
	var types []byte
	for t := range resultsPerValue {
		types = protowire.AppendVarint(types, uint64(t+1))
	}
	var imt []byte
	imt = protowire.AppendTag(imt, 1, protowire.BytesType) // packed iMeasType
	imt = protowire.AppendBytes(imt, types)
	e.miHead = protowire.AppendTag(e.miHead, fMiIMeasTypes, protowire.BytesType)
	e.miHead = protowire.AppendBytes(e.miHead, imt)
	e.miHead = appendString(e.miHead, fMiJobID, "vesload")
	e.valueSize = len(appendValue(nil, 1))
	e.padBase = 1 + 1 + len(padKey) + 1 // map entry: key field, value tag
}

// appendValue appends measValues field i (1-based): one object instance
// with resultsPerValue integer results, always the same encoded size.
func appendValue(b []byte, i int) []byte {
	var obj [16]byte
	id := append(obj[:0], "NRCellDU="...)
	id = appendPadded(id, uint64(i), 5)
	var v [64]byte
	mv := protowire.AppendTag(v[:0], fMvSObjInstID, protowire.BytesType)
	mv = protowire.AppendBytes(mv, id)
	for r := range resultsPerValue {
		var res [16]byte
		mr := protowire.AppendTag(res[:0], fMrP, protowire.VarintType)
		mr = protowire.AppendVarint(mr, uint64(r+1))
		mr = protowire.AppendTag(mr, fMrIValue, protowire.VarintType)
		mr = protowire.AppendVarint(mr, protowire.EncodeZigZag(int64(1000+(i*7919+r*104729)%1000)))
		mv = protowire.AppendTag(mv, fMvMeasResults, protowire.BytesType)
		mv = protowire.AppendBytes(mv, mr)
	}
	b = protowire.AppendTag(b, fMiMeasValues, protowire.BytesType)
	return protowire.AppendBytes(b, mv)
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// appendPadded appends v in decimal with leading zeros to width digits.
func appendPadded(b []byte, v uint64, width int) []byte {
	var d [20]byte
	s := strconv.AppendUint(d[:0], v, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// sizes of the nested messages for a header of h bytes, n values and a
// padding value of pad bytes (-1: none).
func (e *Encoder) sizes(n, pad int) (mi, mdc, ef int) {
	mi = len(e.miHead) + n*e.valueSize
	mdc = len(e.mdcHead) + 1 + protowire.SizeVarint(uint64(mi)) + mi
	ef = len(e.p3Head) + 1 + protowire.SizeVarint(uint64(mdc)) + mdc
	if pad >= 0 {
		entry := e.padBase + protowire.SizeVarint(uint64(pad)) + pad
		ef += 1 + protowire.SizeVarint(uint64(entry)) + entry
	}
	return mi, mdc, ef
}

// total is the VesEvent size for a header of h bytes.
func (e *Encoder) total(h, n, pad int) int {
	_, _, ef := e.sizes(n, pad)
	return 1 + protowire.SizeVarint(uint64(h)) + h + 1 + protowire.SizeVarint(uint64(ef)) + ef
}

// errNoPlan cannot happen for sizes NewEncoder accepts; it is returned
// rather than sending a message of the wrong size.
var errNoPlan = errors.New("wtp: no payload fits the message size exactly")

// planFor finds (and remembers) how to fill a header of h bytes.
func (e *Encoder) planFor(h int) (plan, error) {
	for _, p := range e.plans {
		if p.hdrLen == h {
			return p, nil
		}
	}
	for _, extra := range []bool{false, true} {
		if p, ok := e.fill(h, extra); ok {
			if len(e.plans) < cap(e.plans) {
				e.plans = append(e.plans, p)
			}
			return p, nil
		}
	}
	return plan{}, errNoPlan
}

// fill searches the number of values and the padding that complete a
// header of h bytes (h+2 with extra) to the size.
func (e *Encoder) fill(h int, extra bool) (plan, bool) {
	hh := h
	if extra {
		hh += 2
	}
	n := min(len(e.values)/e.valueSize, maxValues)
	for n > 0 && e.total(hh, n, -1) > e.size {
		n--
	}
	for ; n > 0; n-- {
		for pad := -1; pad <= maxPad; pad++ {
			t := e.total(hh, n, pad)
			if t == e.size {
				return plan{hdrLen: h, n: n, pad: pad, extra: extra}, true
			}
			if t > e.size {
				break
			}
		}
	}
	return plan{}, false
}

// Frame returns the WTP frame of message m: HeaderLen bytes of header and
// Size bytes of VesEvent. The slice is valid until the next call.
func (e *Encoder) Frame(m Message) ([]byte, error) {
	h := e.header(m)
	p, err := e.planFor(len(h))
	if err != nil {
		return nil, err
	}
	if p.extra {
		h = protowire.AppendTag(h, fHdrEventType, protowire.BytesType)
		h = append(h, 0)
		e.hdr = h
	}
	mi, mdc, ef := e.sizes(p.n, p.pad)
	b := AppendHeader(e.out[:0], e.size)
	b = protowire.AppendTag(b, fVesHeader, protowire.BytesType)
	b = protowire.AppendBytes(b, h)
	b = protowire.AppendTag(b, fVesEventFields, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(ef))
	b = append(b, e.p3Head...)
	b = protowire.AppendTag(b, fP3MeasData, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(mdc))
	b = append(b, e.mdcHead...)
	b = protowire.AppendTag(b, fMdcMeasInfo, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(mi))
	b = append(b, e.miHead...)
	b = append(b, e.values[:p.n*e.valueSize]...)
	if p.pad >= 0 {
		b = e.appendPad(b, p.pad)
	}
	e.out = b
	return b, nil
}

// appendPad appends the eventAddlFlds entry {"padding": pad × 'x'}.
func (e *Encoder) appendPad(b []byte, pad int) []byte {
	entry := e.padBase + protowire.SizeVarint(uint64(pad)) + pad
	b = protowire.AppendTag(b, fP3Addl, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(entry))
	b = protowire.AppendTag(b, fMapKey, protowire.BytesType)
	b = protowire.AppendString(b, padKey)
	b = protowire.AppendTag(b, fMapValue, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(pad))
	for range pad {
		b = append(b, 'x')
	}
	return b
}

// header encodes the CommonEventHeader of m into the scratch buffer,
// fields in number order.
func (e *Encoder) header(m Message) []byte {
	h := append(e.hdr[:0], e.hdrA...)
	h = protowire.AppendTag(h, fHdrSequence, protowire.VarintType)
	h = protowire.AppendVarint(h, uint64(m.Sequence))
	h = append(h, e.hdrB...)
	var id [20]byte
	digits := strconv.AppendUint(id[:0], m.GlobalSeq, 10)
	h = protowire.AppendTag(h, fHdrEventID, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(len(e.idPrefix)+len(digits)))
	h = append(h, e.idPrefix...)
	h = append(h, digits...)
	h = append(h, e.hdrC...)
	h = protowire.AppendTag(h, fHdrLastEpoch, protowire.VarintType)
	h = protowire.AppendVarint(h, m.EpochMicros)
	h = protowire.AppendTag(h, fHdrStartEpoch, protowire.VarintType)
	h = protowire.AppendVarint(h, m.EpochMicros)
	h = append(h, e.hdrD...)
	e.hdr = h
	return h
}
