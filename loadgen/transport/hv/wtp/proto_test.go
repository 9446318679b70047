package wtp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/vesload/vesload/internal/shareddata"
)

// onapProtos parses ONAP's VesEvent, Perf3gppFields and MeasDataCollection
// .proto files from the shared folder: the frames are checked against the
// real definitions, not against this package's own reading of them.
func onapProtos(t *testing.T) func(name string) protoreflect.MessageDescriptor {
	t.Helper()
	dir := shareddata.Dir(t, "hv-ves/proto")
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{dir}})}
	files, err := c.Compile(context.Background(), "VesEvent.proto", "Perf3gppFields.proto", "MeasDataCollection.proto")
	if err != nil {
		t.Fatalf("parse ONAP .proto files: %v", err)
	}
	res := files.AsResolver()
	return func(name string) protoreflect.MessageDescriptor {
		t.Helper()
		d, err := res.FindDescriptorByName(protoreflect.FullName("org.onap.ves." + name))
		if err != nil {
			t.Fatalf("message %s: %v", name, err)
		}
		return d.(protoreflect.MessageDescriptor)
	}
}

func TestFieldNumbersMatchONAPProtos(t *testing.T) {
	msg := onapProtos(t)
	for _, c := range []struct {
		message, field string
		num            protowire.Number
		kind           protoreflect.Kind
	}{
		{"VesEvent", "commonEventHeader", fVesHeader, protoreflect.MessageKind},
		{"VesEvent", "eventFields", fVesEventFields, protoreflect.BytesKind},
		{"CommonEventHeader", "version", fHdrVersion, protoreflect.StringKind},
		{"CommonEventHeader", "domain", fHdrDomain, protoreflect.StringKind},
		{"CommonEventHeader", "sequence", fHdrSequence, protoreflect.Uint32Kind},
		{"CommonEventHeader", "priority", fHdrPriority, protoreflect.EnumKind},
		{"CommonEventHeader", "eventId", fHdrEventID, protoreflect.StringKind},
		{"CommonEventHeader", "eventName", fHdrEventName, protoreflect.StringKind},
		{"CommonEventHeader", "eventType", fHdrEventType, protoreflect.StringKind},
		{"CommonEventHeader", "lastEpochMicrosec", fHdrLastEpoch, protoreflect.Uint64Kind},
		{"CommonEventHeader", "startEpochMicrosec", fHdrStartEpoch, protoreflect.Uint64Kind},
		{"CommonEventHeader", "nfVendorName", fHdrNfVendorName, protoreflect.StringKind},
		{"CommonEventHeader", "reportingEntityName", fHdrReportingEntity, protoreflect.StringKind},
		{"CommonEventHeader", "sourceName", fHdrSourceName, protoreflect.StringKind},
		{"CommonEventHeader", "vesEventListenerVersion", fHdrListenerVersion, protoreflect.StringKind},
		{"CommonEventHeader", "stndDefinedNamespace", fHdrStndNamespace, protoreflect.StringKind},
		{"Perf3gppFields", "perf3gppFieldsVersion", fP3Version, protoreflect.StringKind},
		{"Perf3gppFields", "measDataCollection", fP3MeasData, protoreflect.MessageKind},
		{"Perf3gppFields", "eventAddlFlds", fP3Addl, protoreflect.MessageKind},
		{"MeasDataCollection", "formatVersion", fMdcFormatVersion, protoreflect.StringKind},
		{"MeasDataCollection", "granularityPeriod", fMdcGranularity, protoreflect.Uint32Kind},
		{"MeasDataCollection", "measuredEntityUserName", fMdcUserName, protoreflect.StringKind},
		{"MeasDataCollection", "measuredEntityDn", fMdcDn, protoreflect.StringKind},
		{"MeasDataCollection", "measuredEntitySoftwareVersion", fMdcSwVersion, protoreflect.StringKind},
		{"MeasDataCollection", "measInfo", fMdcMeasInfo, protoreflect.MessageKind},
		{"MeasInfo", "iMeasInfoId", fMiIMeasInfoID, protoreflect.Uint32Kind},
		{"MeasInfo", "iMeasTypes", fMiIMeasTypes, protoreflect.MessageKind},
		{"MeasInfo", "jobId", fMiJobID, protoreflect.StringKind},
		{"MeasInfo", "measValues", fMiMeasValues, protoreflect.MessageKind},
		{"MeasValue", "sMeasObjInstId", fMvSObjInstID, protoreflect.StringKind},
		{"MeasValue", "measResults", fMvMeasResults, protoreflect.MessageKind},
		{"MeasResult", "p", fMrP, protoreflect.Uint32Kind},
		{"MeasResult", "iValue", fMrIValue, protoreflect.Sint64Kind},
	} {
		fd := msg(c.message).Fields().ByName(protoreflect.Name(c.field))
		if fd == nil {
			t.Errorf("%s.%s: not in the .proto file", c.message, c.field)
			continue
		}
		if fd.Number() != c.num || fd.Kind() != c.kind {
			t.Errorf("%s.%s: .proto says %d %v, the encoder uses %d %v", c.message, c.field, fd.Number(), fd.Kind(), c.num, c.kind)
		}
	}
	prio := msg("CommonEventHeader").Fields().ByName("priority").Enum().Values().ByName("NORMAL")
	if prio == nil || prio.Number() != protoreflect.EnumNumber(PriorityNormal) {
		t.Errorf("priority NORMAL: .proto says %v, the encoder uses %d", prio, PriorityNormal)
	}
}

// decoded is a VesEvent read back with dynamicpb.
type decoded struct {
	header, fields, mdc *dynamicpb.Message
}

func decodeONAP(t *testing.T, msg func(string) protoreflect.MessageDescriptor, payload []byte) decoded {
	t.Helper()
	ev := dynamicpb.NewMessage(msg("VesEvent"))
	if err := proto.Unmarshal(payload, ev); err != nil {
		t.Fatalf("VesEvent does not decode with ONAP's VesEvent.proto: %v", err)
	}
	noUnknown(t, ev)
	hf := ev.Descriptor().Fields()
	d := decoded{header: ev.Get(hf.ByName("commonEventHeader")).Message().Interface().(*dynamicpb.Message)}
	d.fields = dynamicpb.NewMessage(msg("Perf3gppFields"))
	if err := proto.Unmarshal(ev.Get(hf.ByName("eventFields")).Bytes(), d.fields); err != nil {
		t.Fatalf("eventFields do not decode as Perf3gppFields: %v", err)
	}
	noUnknown(t, d.fields)
	d.mdc = d.fields.Get(d.fields.Descriptor().Fields().ByName("measDataCollection")).Message().Interface().(*dynamicpb.Message)
	return d
}

// noUnknown fails when any message in m has fields the .proto files do
// not define: a wrong field number would land there.
func noUnknown(t *testing.T, m protoreflect.Message) {
	t.Helper()
	if len(m.GetUnknown()) > 0 {
		t.Fatalf("%s has %d bytes of fields unknown to the .proto file", m.Descriptor().FullName(), len(m.GetUnknown()))
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			for i := range v.List().Len() {
				noUnknown(t, v.List().Get(i).Message())
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			noUnknown(t, v.Message())
		}
		return true
	})
}

func str(m *dynamicpb.Message, name string) string {
	return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(name))).String()
}

func num(m *dynamicpb.Message, name string) uint64 {
	v := m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(name)))
	if e, ok := v.Interface().(protoreflect.EnumNumber); ok {
		return uint64(e)
	}
	return v.Uint()
}

func TestFramesDecodeWithONAPProtos(t *testing.T) {
	t.Parallel()
	msg := onapProtos(t)
	src := Source{RunID: "r7Kx2", ReportingEntityName: "vesload", SourceName: "vesload-hv-3", NfVendorName: "vesload"}
	for _, c := range []struct {
		size int
		m    Message
	}{
		{8192, Message{GlobalSeq: 0, Sequence: 0, EpochMicros: 1_764_590_000_000_000}},
		{8192, Message{GlobalSeq: 123456789012, Sequence: 4_000_000_000, EpochMicros: 1_764_590_000_123_456}},
		{MinSize(src), Message{GlobalSeq: 18446744073709551615, Sequence: 4294967295, EpochMicros: 18446744073709551615}},
		{MinSize(src), Message{GlobalSeq: 1, Sequence: 1, EpochMicros: 1}},
		{1000, Message{GlobalSeq: 17, Sequence: 3, EpochMicros: 1_764_590_000_000_001}},
		{16511, Message{GlobalSeq: 18446744073709551615, Sequence: 4294967295, EpochMicros: 18446744073709551615}}, // needs the extra eventType
		{MaxPayload, Message{GlobalSeq: 99, Sequence: 99, EpochMicros: 1_764_590_000_000_001}},
	} {
		t.Run(fmt.Sprint(c.size, "/", c.m.GlobalSeq), func(t *testing.T) {
			enc, err := NewEncoder(src, c.size)
			if err != nil {
				t.Fatal(err)
			}
			frame, err := enc.Frame(c.m)
			if err != nil {
				t.Fatal(err)
			}
			checkFrame(t, msg, frame, c.size, src, c.m)
		})
	}
}

func checkFrame(t *testing.T, msg func(string) protoreflect.MessageDescriptor, frame []byte, size int, src Source, m Message) {
	t.Helper()
	if len(frame) != HeaderLen+size {
		t.Fatalf("frame is %d bytes, want %d + %d", len(frame), HeaderLen, size)
	}
	wantHead := []byte{0xAA, 1, 0, 0, 0, 0, 0, 1, byte(size >> 24), byte(size >> 16), byte(size >> 8), byte(size)}
	if string(frame[:HeaderLen]) != string(wantHead) {
		t.Fatalf("WTP header % x, want % x", frame[:HeaderLen], wantHead)
	}
	d := decodeONAP(t, msg, frame[HeaderLen:])
	h := d.header
	for _, f := range []struct{ name, want string }{
		{"version", "1.0"}, {"domain", "perf3gpp"}, {"eventId", fmt.Sprintf("%s-%d", src.RunID, m.GlobalSeq)},
		{"eventName", "perf3gpp_vesload"}, {"reportingEntityName", src.ReportingEntityName},
		{"sourceName", src.SourceName}, {"vesEventListenerVersion", "7.2"}, {"nfVendorName", src.NfVendorName},
	} {
		if got := str(h, f.name); got != f.want {
			t.Errorf("commonEventHeader.%s = %q, want %q", f.name, got, f.want)
		}
	}
	for _, f := range []struct {
		name string
		want uint64
	}{
		{"sequence", uint64(m.Sequence)}, {"priority", uint64(PriorityNormal)},
		{"lastEpochMicrosec", m.EpochMicros}, {"startEpochMicrosec", m.EpochMicros},
	} {
		if got := num(h, f.name); got != f.want {
			t.Errorf("commonEventHeader.%s = %d, want %d", f.name, got, f.want)
		}
	}
	if v := str(d.fields, "perf3gppFieldsVersion"); v != "1.0" {
		t.Errorf("perf3gppFieldsVersion = %q", v)
	}
	if v := str(d.mdc, "formatVersion"); v != "28.550 2.0" {
		t.Errorf("formatVersion = %q", v)
	}
	if num(d.mdc, "granularityPeriod") == 0 {
		t.Error("granularityPeriod is 0")
	}
	infos := d.mdc.Get(d.mdc.Descriptor().Fields().ByName("measInfo")).List()
	if infos.Len() != 1 {
		t.Fatalf("%d measInfo, want 1", infos.Len())
	}
	info := infos.Get(0).Message()
	values := info.Get(info.Descriptor().Fields().ByName("measValues")).List()
	if values.Len() < 1 {
		t.Fatal("no measValues")
	}
	for i := range values.Len() {
		mv := values.Get(i).Message()
		res := mv.Get(mv.Descriptor().Fields().ByName("measResults")).List()
		if res.Len() != resultsPerValue || !strings.HasPrefix(mv.Get(mv.Descriptor().Fields().ByName("sMeasObjInstId")).String(), "NRCellDU=") {
			t.Fatalf("measValue %d: %d results, object %v", i, res.Len(), mv)
		}
	}
}

func TestSizesAreExact(t *testing.T) {
	t.Parallel()
	src := Source{RunID: "abcdef", ReportingEntityName: "vesload", SourceName: "vesload-hv-0"}
	min := MinSize(src)
	seqs := []Message{{0, 0, 1}, {9, 127, 1 << 40}, {1 << 20, 1 << 14, 1_764_590_000_000_000}, {1<<64 - 1, 1<<32 - 1, 1<<64 - 1}}
	for size := min; size < min+20_000; size += 17 { // crosses the 1- to 2- and 2- to 3-byte length boundaries
		enc, err := NewEncoder(src, size)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		for _, m := range seqs {
			f, err := enc.Frame(m)
			if err != nil || len(f) != HeaderLen+size {
				t.Fatalf("size %d, message %+v: %d bytes, %v", size, m, len(f), err)
			}
		}
	}
}

func TestSizeLimits(t *testing.T) {
	src := Source{RunID: "abcdef", SourceName: "p0"}
	min := MinSize(src)
	if min < 100 || min > 400 {
		t.Fatalf("MinSize = %d, expected a few hundred bytes", min)
	}
	for _, c := range []struct {
		size int
		ok   bool
	}{{min - 1, false}, {min, true}, {MaxPayload, true}, {MaxPayload + 1, false}, {0, false}} {
		_, err := NewEncoder(src, c.size)
		if (err == nil) != c.ok {
			t.Errorf("size %d: err %v, want ok=%v", c.size, err, c.ok)
		}
	}
}

func TestDecodeEventReadsWhatFrameWrote(t *testing.T) {
	src := Source{RunID: "run1", Domain: "measurement", ReportingEntityName: "re", SourceName: "sn", Priority: PriorityHigh}
	enc, err := NewEncoder(src, 2048)
	if err != nil {
		t.Fatal(err)
	}
	f, err := enc.Frame(Message{GlobalSeq: 42, Sequence: 7, EpochMicros: 1234567})
	if err != nil {
		t.Fatal(err)
	}
	h, fields, err := DecodeEvent(f[HeaderLen:])
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s|%s|%d|%d|%s|%s|%d|%d|%s|%s|%s", h.Version, h.Domain, h.Sequence, h.Priority, h.EventID,
		h.EventName, h.LastEpochMicrosec, h.StartEpochMicrosec, h.ReportingEntityName, h.SourceName, h.ListenerVersion)
	want := "1.0|measurement|7|1|run1-42|measurement_vesload|1234567|1234567|re|sn|7.2"
	if got != want || len(fields) == 0 {
		t.Errorf("decoded %s (%d field bytes), want %s", got, len(fields), want)
	}
}

func TestFrameAllocatesNothing(t *testing.T) {
	enc, err := NewEncoder(Source{RunID: "r", SourceName: "s"}, 8192)
	if err != nil {
		t.Fatal(err)
	}
	var i uint64
	allocs := testing.AllocsPerRun(1000, func() {
		i++
		if _, err := enc.Frame(Message{GlobalSeq: i * 1000, Sequence: uint32(i), EpochMicros: 1_764_590_000_000_000 + i}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Frame allocates %v times per message, want 0", allocs)
	}
}
