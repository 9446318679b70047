package delivery

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/vesload/vesload/loadgen/transport"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// dueEvery10ms is a 100/s schedule starting at t0.
func dueEvery10ms(n uint64) time.Time { return t0.Add(time.Duration(n) * 10 * time.Millisecond) }

func jsonRecord(id string, part int32, ts time.Time) Record {
	v := `{"event":{"commonEventHeader":{"domain":"fault","eventId":"` + id + `","sequence":1}}}`
	return Record{Value: []byte(v), Partition: part, Timestamp: ts, TSType: CreateTime, Lag: -1}
}

func newTally(t *testing.T, events uint64, batch int) *Tally {
	t.Helper()
	tl, err := NewTally(Config{RunID: "run-ab12", Events: events, Batch: batch, Start: t0, Due: dueEvery10ms})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestTallyCounts(t *testing.T) {
	t.Parallel()
	tl := newTally(t, 10, 1)
	for seq := range int64(8) {
		if seq != 3 {
			tl.Accept(seq) // request 3 got an error
		}
	}
	at := func(n int, ms int) time.Time {
		return dueEvery10ms(uint64(n)).Add(time.Duration(ms) * time.Millisecond)
	}
	recs := []Record{
		jsonRecord("run-ab12-0", 0, at(0, 5)),
		jsonRecord("run-ab12-2", 0, at(2, 7)),
		jsonRecord("run-ab12-1", 0, at(1, 20)), // after 2 on the same partition
		jsonRecord("run-ab12-3", 1, at(3, 5)),  // rejected, yet delivered
		jsonRecord("run-ab12-0", 1, at(0, 9)),  // a duplicate
		jsonRecord("other-run-4", 1, at(4, 1)), // foreign
		jsonRecord("run-ab12-99", 1, at(4, 1)), // beyond the schedule: foreign
		{Value: []byte("not json \x00"), Lag: -1},
		jsonRecord("run-ab12-5", 2, at(5, -3)),                                    // stamped before due
		jsonRecord("run-ab12-"+strconv.Itoa(transport.PreflightSeq), 0, at(0, 1)), // the preflight's: not counted
	}
	for i, r := range recs {
		tl.Add(r, at(i, 50))
	}
	d, err := tl.Result("kafka://k:9092/t", 8, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want int64
	}{
		{"delivered", d.Delivered, 5}, {"accepted", d.Accepted, 7}, {"lost", d.Lost, 3},
		{"lost though accepted", d.LostThoughAccepted, 3}, // 4, 6, 7
		{"delivered though rejected", d.DeliveredThoughRejected, 1},
		{"duplicates", d.Duplicates, 1}, {"out of order", d.OutOfOrder, 1},
		{"foreign", d.Foreign, 3}, {"records", d.Records, 9}, {"clock skewed", d.ClockSkewed, 1},
		{"e2e count", d.E2E.Count, 5}, {"consumed count", d.Consumed.Count, 5},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if d.TimestampType != "CreateTime" || d.E2E.Max < 19.9 || d.E2E.Max > 20.1 || d.E2E.Min != 0 {
		t.Errorf("timestamp %s, e2e %+v: want CreateTime, max 20 ms, min 0 (the skewed one)", d.TimestampType, d.E2E)
	}
	if d.TimestampResolutionMs != 1 {
		t.Errorf("timestamp resolution %v ms, want 1 (Kafka timestamps are whole milliseconds)", d.TimestampResolutionMs)
	}
	if d.Histograms.E2E == "" || d.Histograms.Consumed == "" || len(d.Timeline) == 0 {
		t.Errorf("histograms %+v, timeline %v: want both encoded and a timeline", d.Histograms, d.Timeline)
	}
}

func TestTallyBatchAndExpect(t *testing.T) {
	t.Parallel()
	tl := newTally(t, 6, 3)
	tl.Accept(1) // events 3, 4, 5
	tl.Accept(2) // beyond the bitmap: ignored
	tl.Accept(-1)
	reached := tl.Expect(2)
	tl.Add(jsonRecord("run-ab12-4", 0, t0), t0)
	select {
	case <-reached:
		t.Fatal("reached after one of two events")
	default:
	}
	tl.Add(jsonRecord("run-ab12-3", 0, t0), t0)
	select {
	case <-reached:
	default:
		t.Fatal("not reached after two events")
	}
	d, err := tl.Result("s", 6, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if d.Accepted != 3 || d.LostThoughAccepted != 1 || d.Lost != 4 || d.OutOfOrder != 1 {
		t.Errorf("%+v: want 3 accepted, 1 lost though accepted, 4 lost, 1 out of order", d)
	}
	if tl.Expect(1) == nil {
		t.Fatal("nil channel")
	}
}

// TestTallyStateIsBits checks that following a run costs two bits per
// event, whatever the run's length: no per-request maps or records.
func TestTallyStateIsBits(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{1, 64, 1000, 60_000, 6_000_000} {
		tl := newTally(t, n, 1)
		words := (n + 63) / 64
		if got, want := tl.StateBytes(), int(2*words*8); got != want {
			t.Errorf("%d events: %d bytes of state, want %d (two bits each)", n, got, want)
		}
	}
}

func TestEventID(t *testing.T) {
	t.Parallel()
	hdr := protowire.AppendTag(nil, 1, protowire.BytesType) // domain
	hdr = protowire.AppendBytes(hdr, []byte("perf3gpp"))
	hdr = protowire.AppendTag(hdr, 4, protowire.VarintType) // a varint on the way
	hdr = protowire.AppendVarint(hdr, 7)
	hdr = protowire.AppendTag(hdr, 5, protowire.BytesType)
	hdr = protowire.AppendBytes(hdr, []byte("run-1-42"))
	ves := protowire.AppendTag(nil, 1, protowire.BytesType)
	ves = protowire.AppendBytes(ves, hdr)
	ves = protowire.AppendTag(ves, 2, protowire.BytesType)
	ves = protowire.AppendBytes(ves, []byte("payload"))
	tests := []struct {
		name, value, want string
	}{
		{"collector json", `{"event":{"commonEventHeader":{"eventId":"r-7"}}}`, "r-7"},
		{"spaces", ` { "eventId" : "r-8" }`, "r-8"},
		{"word in a value first", `{"text":"eventId","commonEventHeader":{"eventId":"r-9"}}`, "r-9"},
		{"not a string", `{"eventId":5}`, ""},
		{"unterminated", `{"eventId":"r-1`, ""},
		{"none", `{"event":{}}`, ""},
		{"protobuf", string(ves), "run-1-42"},
		{"protobuf without header", string(protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), []byte("x"))), ""},
		{"garbage", "\x0a\xff\xff", ""},
	}
	for _, tt := range tests {
		if got := string(EventID([]byte(tt.value))); got != tt.want {
			t.Errorf("%s: EventID = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseSeq(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id   string
		n    uint64
		want bool
	}{
		{"run-ab12-0", 0, true}, {"run-ab12-1234", 1234, true},
		{"run-ab12-01", 0, false}, {"run-ab12-", 0, false}, {"run-ab12-1x", 0, false},
		{"run-ab1-2", 0, false}, {"run-ab12-3-4", 0, false}, {"", 0, false},
		{"run-ab12-99999999999999999999", 0, false},
	}
	for _, tt := range tests {
		n, ok := parseSeq([]byte(tt.id), []byte("run-ab12"))
		if ok != tt.want || n != tt.n {
			t.Errorf("parseSeq(%q) = %d, %v; want %d, %v", tt.id, n, ok, tt.n, tt.want)
		}
	}
}

func FuzzEventID(f *testing.F) {
	for _, s := range []string{`{"eventId":"run-1-2"}`, "\x0a\x04\x2a\x02x", `{"eventId" "x"`, "\x0a\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		id := EventID(v)
		if len(id) > len(v) || strings.Contains(string(id), `"`) && v[0] == '{' {
			t.Fatalf("EventID(%q) = %q", v, id)
		}
		if n, ok := parseSeq(id, []byte("run")); ok && fmt.Sprintf("run-%d", n) != string(id) {
			t.Fatalf("parseSeq(%q) = %d: not the one spelling of the id", id, n)
		}
	})
}

func BenchmarkTallyAdd(b *testing.B) {
	tl, _ := NewTally(Config{RunID: "run-ab12", Events: 1 << 20, Start: t0, Due: dueEvery10ms})
	recs := make([]Record, 1024)
	for i := range recs {
		recs[i] = jsonRecord(fmt.Sprintf("run-ab12-%d", i), 0, t0)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tl.Add(recs[i%len(recs)], t0)
	}
}

// BenchmarkTallyAccept is the per-request observer's cost: it must
// allocate nothing.
func BenchmarkTallyAccept(b *testing.B) {
	tl, _ := NewTally(Config{RunID: "run-ab12", Events: 1 << 20, Batch: 1, Start: t0, Due: dueEvery10ms})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tl.Accept(int64(i & (1<<20 - 1)))
	}
}

// TestTallyNoTimestamps checks that a source without record timestamps
// (DMaaP) records no resolution: there is no "to the record" figure.
func TestTallyNoTimestamps(t *testing.T) {
	t.Parallel()
	tl := newTally(t, 2, 1)
	r := jsonRecord("run-ab12-0", 0, time.Time{})
	r.TSType = NoTimestamp
	tl.Add(r, dueEvery10ms(0).Add(time.Millisecond))
	d, err := tl.Result("dmaap://d:3904/events/t/g/c", 2, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if d.TimestampType != "none" || d.TimestampResolutionMs != 0 || d.E2E.Count != 0 || d.Consumed.Count != 1 {
		t.Errorf("type %q resolution %v e2e %d consumed %d", d.TimestampType, d.TimestampResolutionMs, d.E2E.Count, d.Consumed.Count)
	}
}

// Several producers interleave freely on one partition: order is judged
// per producer (event n is producer n mod Sources's), as Kafka keys by
// source would keep it.
func TestTallyOrderPerSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		sources uint64
		order   []int
		want    int64
	}{
		{"two producers interleaved, each in order", 2, []int{1, 3, 0, 2, 5, 4}, 0},
		{"one producer late on itself", 2, []int{0, 4, 2, 1, 3, 5}, 1},
		{"one source: the same arrivals are out of order", 1, []int{1, 3, 0, 2, 5, 4}, 3},
		{"no sources given: one source", 0, []int{1, 3, 0, 2, 5, 4}, 3},
	}
	for _, tc := range tests {
		tl, err := NewTally(Config{RunID: "run-ab12", Events: 6, Start: t0, Due: dueEvery10ms, NoAnswers: true, Sources: tc.sources})
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range tc.order {
			at := dueEvery10ms(uint64(n)).Add(5 * time.Millisecond)
			tl.Add(jsonRecord("run-ab12-"+strconv.Itoa(n), 0, at), at.Add(time.Duration(i)*time.Millisecond))
		}
		d, err := tl.Result("kafka://k:9092/t", 6, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if d.OutOfOrder != tc.want || d.Delivered != 6 {
			t.Errorf("%s: out of order %d of %d delivered, want %d of 6", tc.name, d.OutOfOrder, d.Delivered, tc.want)
		}
	}
}
