package wtp

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// EventHeader is the CommonEventHeader of a received VesEvent. The byte
// slices point into the payload it was decoded from.
type EventHeader struct {
	Version             []byte
	Domain              []byte
	Sequence            uint32
	Priority            Priority
	EventID             []byte
	EventName           []byte
	LastEpochMicrosec   uint64
	StartEpochMicrosec  uint64
	ReportingEntityName []byte
	SourceName          []byte
	ListenerVersion     []byte
	// StndDefinedNamespace routes events of domain stndDefined.
	StndDefinedNamespace []byte
}

// ErrNoHeader: the VesEvent has no commonEventHeader.
var ErrNoHeader = errors.New("wtp: VesEvent without commonEventHeader")

// DecodeEvent reads a VesEvent: its header fields and its eventFields.
// Unknown fields are skipped, as protobuf readers do; malformed protobuf
// is an error. It allocates nothing.
func DecodeEvent(payload []byte) (h EventHeader, eventFields []byte, err error) {
	var header []byte
	found := false
	err = eachField(payload, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		switch {
		case num == fVesHeader && typ == protowire.BytesType:
			header, found = v, true
		case num == fVesEventFields && typ == protowire.BytesType:
			eventFields = v
		}
		return nil
	})
	if err != nil {
		return h, nil, err
	}
	if !found {
		return h, nil, ErrNoHeader
	}
	err = eachField(header, h.set)
	return h, eventFields, err
}

// set stores one header field; fields of a wrong wire type are malformed.
func (h *EventHeader) set(num protowire.Number, typ protowire.Type, v []byte, n uint64) error {
	want := protowire.BytesType
	if num == fHdrSequence || num == fHdrPriority || num == fHdrLastEpoch || num == fHdrStartEpoch {
		want = protowire.VarintType
	}
	if num > fHdrStndNamespace || num < 1 {
		return nil
	}
	if typ != want {
		return fmt.Errorf("wtp: header field %d has wire type %d", num, typ)
	}
	switch num {
	case fHdrVersion:
		h.Version = v
	case fHdrDomain:
		h.Domain = v
	case fHdrSequence:
		h.Sequence = uint32(n)
	case fHdrPriority:
		h.Priority = Priority(int32(n))
	case fHdrEventID:
		h.EventID = v
	case fHdrEventName:
		h.EventName = v
	case fHdrLastEpoch:
		h.LastEpochMicrosec = n
	case fHdrStartEpoch:
		h.StartEpochMicrosec = n
	case fHdrReportingEntity:
		h.ReportingEntityName = v
	case fHdrSourceName:
		h.SourceName = v
	case fHdrListenerVersion:
		h.ListenerVersion = v
	case fHdrStndNamespace:
		h.StndDefinedNamespace = v
	}
	return nil
}

// eachField calls fn for every field of the message b: the value bytes of
// a length-delimited field, the number of a varint.
func eachField(b []byte, fn func(protowire.Number, protowire.Type, []byte, uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("wtp: protobuf: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("wtp: protobuf field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}
