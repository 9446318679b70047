package ves

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// bodyRenderer is the engine's body interface, restated so the package
// proves it satisfies it without importing the engine.
type bodyRenderer interface {
	AppendBody(dst []byte, seq uint64, due time.Time) []byte
}

var (
	_ bodyRenderer = (*Event)(nil)
	_ bodyRenderer = (*Template)(nil)
)

// header is the part of commonEventHeader the tests check. Numbers are
// kept as json.Number so large values compare exactly.
type header struct {
	Domain                  string      `json:"domain"`
	EventID                 string      `json:"eventId"`
	EventName               string      `json:"eventName"`
	Sequence                json.Number `json:"sequence"`
	StartEpochMicrosec      json.Number `json:"startEpochMicrosec"`
	LastEpochMicrosec       json.Number `json:"lastEpochMicrosec"`
	Version                 string      `json:"version"`
	VESEventListenerVersion string      `json:"vesEventListenerVersion"`
	Priority                string      `json:"priority"`
	SourceName              string      `json:"sourceName"`
	ReportingEntityName     string      `json:"reportingEntityName"`
}

// headers parses a single or batch body into its events' headers.
func headers(t *testing.T, body []byte) []header {
	t.Helper()
	var doc struct {
		Event *struct {
			H header `json:"commonEventHeader"`
		} `json:"event"`
		EventList []struct {
			H header `json:"commonEventHeader"`
		} `json:"eventList"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("body is not valid JSON: %v\n%s", err, body)
	}
	if doc.Event != nil {
		return []header{doc.Event.H}
	}
	hs := make([]header, len(doc.EventList))
	for i, e := range doc.EventList {
		hs[i] = e.H
	}
	return hs
}

func TestNewEventHeaders(t *testing.T) {
	t.Parallel()
	due := time.Date(2024, 1, 2, 3, 4, 5, 678_901_234, time.UTC)
	for _, domain := range Domains() {
		t.Run(domain, func(t *testing.T) {
			t.Parallel()
			e, err := NewEvent(domain, EventOptions{RunID: "run-7", SourceName: "nf-9", ReportingEntityName: "ems-2"})
			if err != nil {
				t.Fatal(err)
			}
			if e.Domain() != domain || e.Batch() != 1 || e.RunID() != "run-7" {
				t.Errorf("Domain, Batch, RunID = %q, %d, %q", e.Domain(), e.Batch(), e.RunID())
			}
			hs := headers(t, e.AppendBody(nil, 42, due))
			if len(hs) != 1 {
				t.Fatalf("got %d events, want 1", len(hs))
			}
			h := hs[0]
			micros := fmt.Sprint(due.UnixMicro())
			checks := []struct{ field, got, want string }{
				{"domain", h.Domain, domain},
				{"eventId", h.EventID, "run-7-42"},
				{"sequence", h.Sequence.String(), "42"},
				{"startEpochMicrosec", h.StartEpochMicrosec.String(), micros},
				{"lastEpochMicrosec", h.LastEpochMicrosec.String(), micros},
				{"version", h.Version, "4.1"},
				{"vesEventListenerVersion", h.VESEventListenerVersion, "7.2.1"},
				{"sourceName", h.SourceName, "nf-9"},
				{"reportingEntityName", h.ReportingEntityName, "ems-2"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
				}
			}
			if !strings.Contains(h.EventName, "_vesload_") || h.Priority == "" {
				t.Errorf("eventName %q, priority %q", h.EventName, h.Priority)
			}
		})
	}
}

func TestNewEventDefaults(t *testing.T) {
	t.Parallel()
	a, err := NewEvent("heartbeat", EventOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewEvent("heartbeat", EventOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hexID := regexp.MustCompile(`^[0-9a-f]{16}$`)
	if !hexID.MatchString(a.RunID()) || a.RunID() == b.RunID() {
		t.Errorf("random run IDs %q and %q: want two different 16-digit hex IDs (64 bits)", a.RunID(), b.RunID())
	}
	h := headers(t, a.AppendBody(nil, 0, time.Now()))[0]
	if h.SourceName != DefaultSourceName || h.ReportingEntityName != DefaultReportingEntityName {
		t.Errorf("sourceName %q, reportingEntityName %q: want the defaults", h.SourceName, h.ReportingEntityName)
	}
	if h.EventID != a.RunID()+"-0" {
		t.Errorf("eventId %q, want %q", h.EventID, a.RunID()+"-0")
	}
}

func TestNewEventErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		domain string
		opts   EventOptions
		want   string
	}{
		{"unknown domain", "syslogx", EventOptions{}, `unknown VES domain "syslogx"`},
		{"negative batch", "fault", EventOptions{Batch: -1}, "batch -1 out of range"},
		{"huge batch", "fault", EventOptions{Batch: MaxBatch + 1}, "out of range"},
		{"negative size", "fault", EventOptions{Size: -5}, "size -5 out of range"},
		{"huge size", "fault", EventOptions{Size: MaxSize + 1}, "out of range"},
		{"size below natural", "measurement", EventOptions{Size: 300}, "below the natural size"},
		{"batch size below natural", "fault", EventOptions{Size: 1024, Batch: 3}, "below the natural size"},
		{"run ID with quote", "fault", EventOptions{RunID: `a"b`}, "is not a letter"},
		{"run ID too long", "fault", EventOptions{RunID: strings.Repeat("a", 65)}, "longer than 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := NewEvent(tt.domain, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewEvent = %v, %v; want error containing %q", e, err, tt.want)
			}
		})
	}
}

func TestNewEventDomainIgnoresCase(t *testing.T) {
	t.Parallel()
	e, err := NewEvent("PNFREGISTRATION", EventOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Domain() != "pnfRegistration" {
		t.Errorf("Domain() = %q, want pnfRegistration", e.Domain())
	}
}

func TestEventBatchSequences(t *testing.T) {
	t.Parallel()
	e, err := NewEvent("fault", EventOptions{RunID: "b", Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	if e.Batch() != 3 {
		t.Fatalf("Batch() = %d, want 3", e.Batch())
	}
	body := e.AppendBody(nil, 5, time.Unix(1, 0))
	if !bytes.HasPrefix(body, []byte(`{"eventList":[`)) {
		t.Fatalf("batch body does not start with eventList: %.40s", body)
	}
	hs := headers(t, body)
	if len(hs) != 3 {
		t.Fatalf("got %d events, want 3", len(hs))
	}
	for i, h := range hs {
		n := 15 + i
		if h.Sequence.String() != fmt.Sprint(n) || h.EventID != fmt.Sprintf("b-%d", n) {
			t.Errorf("event %d: sequence %s, eventId %q; want %d and b-%d", i, h.Sequence, h.EventID, n, n)
		}
	}
}

// TestEventIDsUniqueAcrossRuns renders many requests from two generators
// with different run IDs: no eventId may repeat, and sequences must rise.
func TestEventIDsUniqueAcrossRuns(t *testing.T) {
	t.Parallel()
	for _, batch := range []int{1, 4} {
		t.Run(fmt.Sprintf("batch=%d", batch), func(t *testing.T) {
			t.Parallel()
			seen := map[string]bool{}
			for _, runID := range []string{"run-a", "run-b"} {
				e, err := NewEvent("notification", EventOptions{RunID: runID, Batch: batch})
				if err != nil {
					t.Fatal(err)
				}
				last := int64(-1)
				for seq := uint64(0); seq < 500; seq++ {
					for _, h := range headers(t, e.AppendBody(nil, seq, time.Now())) {
						if seen[h.EventID] {
							t.Fatalf("eventId %q repeated", h.EventID)
						}
						seen[h.EventID] = true
						n, err := h.Sequence.Int64()
						if err != nil || n <= last {
							t.Fatalf("sequence %s after %d: want increasing integers", h.Sequence, last)
						}
						last = n
					}
				}
			}
			if want := 2 * 500 * batch; len(seen) != want {
				t.Errorf("saw %d eventIds, want %d", len(seen), want)
			}
		})
	}
}

func TestEventTimestampsFollowDue(t *testing.T) {
	t.Parallel()
	e, err := NewEvent("stndDefined", EventOptions{Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	dues := []time.Time{
		time.Unix(0, 0),
		time.Date(2024, 2, 29, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2030, 7, 1, 12, 0, 0, 1_000, time.FixedZone("CEST", 2*3600)),
	}
	for _, due := range dues {
		body := e.AppendBody(nil, 3, due)
		want := fmt.Sprint(due.UnixMicro())
		for _, h := range headers(t, body) {
			if h.StartEpochMicrosec.String() != want || h.LastEpochMicrosec.String() != want {
				t.Errorf("due %v: start %s, last %s; want %s", due, h.StartEpochMicrosec, h.LastEpochMicrosec, want)
			}
		}
		eventTime := `"eventTime":"` + due.UTC().Format("2006-01-02T15:04:05.000000Z") + `"`
		if got := bytes.Count(body, []byte(eventTime)); got != 2 {
			t.Errorf("due %v: %s appears %d times, want 2", due, eventTime, got)
		}
	}
}

func TestEventPaddedSize(t *testing.T) {
	t.Parallel()
	// Sizes leave room for the natural size even at seq 2^50.
	sizes := map[int][]int{1: {4096, 8192, 8193}, 3: {8192, 65536}, 7: {65536}}
	for _, domain := range Domains() {
		for _, batch := range []int{1, 3, 7} {
			for _, size := range sizes[batch] {
				t.Run(fmt.Sprintf("%s/batch=%d/size=%d", domain, batch, size), func(t *testing.T) {
					t.Parallel()
					e, err := NewEvent(domain, EventOptions{Size: size, Batch: batch})
					if err != nil {
						t.Fatal(err)
					}
					for _, seq := range []uint64{0, 9, 123_456, 1 << 50} {
						body := e.AppendBody(nil, seq, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
						if len(body) != size {
							t.Errorf("seq %d: %d bytes, want %d", seq, len(body), size)
						}
						if !json.Valid(body) {
							t.Fatalf("seq %d: invalid JSON", seq)
						}
					}
				})
			}
		}
	}
}

// TestEventPaddingAtNaturalSize: when Size equals the natural size at seq 0,
// longer sequence numbers may overflow it by only the extra digits.
func TestEventPaddingAtNaturalSize(t *testing.T) {
	t.Parallel()
	natural, err := NewEvent("fault", EventOptions{RunID: "n"})
	if err != nil {
		t.Fatal(err)
	}
	due := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	size := len(natural.AppendBody(nil, 0, due)) + len(padKey) + 1
	e, err := NewEvent("fault", EventOptions{RunID: "n", Size: size})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(e.AppendBody(nil, 0, due)); got != size {
		t.Fatalf("seq 0: %d bytes, want %d", got, size)
	}
	// seq 10^6 adds 6 digits to eventId and to sequence.
	if got := len(e.AppendBody(nil, 1_000_000, due)); got != size+12 {
		t.Errorf("seq 1e6: %d bytes, want %d", got, size+12)
	}
}

func TestEventEscapesNames(t *testing.T) {
	t.Parallel()
	name := `nf "1" {{.Seq}} ${X} \ é`
	e, err := NewEvent("fault", EventOptions{SourceName: name, ReportingEntityName: "<ems>&"})
	if err != nil {
		t.Fatal(err)
	}
	h := headers(t, e.AppendBody(nil, 1, time.Now()))[0]
	if h.SourceName != name || h.ReportingEntityName != "<ems>&" {
		t.Errorf("sourceName %q, reportingEntityName %q", h.SourceName, h.ReportingEntityName)
	}
}

func TestEventAppendsToDst(t *testing.T) {
	t.Parallel()
	e, err := NewEvent("fault", EventOptions{Size: 2048})
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte("prefix:")
	out := e.AppendBody(append([]byte(nil), prefix...), 3, time.Now())
	if !bytes.HasPrefix(out, prefix) || len(out) != len(prefix)+2048 || !json.Valid(out[len(prefix):]) {
		t.Errorf("AppendBody did not append a 2048-byte body after the prefix: %d bytes", len(out))
	}
}

func TestEventRenderAllocatesNothing(t *testing.T) {
	for _, domain := range Domains() {
		for _, opts := range []EventOptions{{}, {Size: 8192}, {Batch: 5, Size: 16384}} {
			e, err := NewEvent(domain, opts)
			if err != nil {
				t.Fatal(err)
			}
			buf := e.AppendBody(nil, 1<<40, time.Now())
			seq := uint64(0)
			due := time.Now()
			allocs := testing.AllocsPerRun(200, func() {
				buf = e.AppendBody(buf[:0], seq, due)
				seq++
			})
			if allocs != 0 {
				t.Errorf("%s %+v: %.1f allocations per render, want 0", domain, opts, allocs)
			}
		}
	}
}

// TestEventConcurrentRender renders from many goroutines (run with -race)
// and compares with a sequential render: bodies depend on seq and due only.
func TestEventConcurrentRender(t *testing.T) {
	t.Parallel()
	e, err := NewEvent("measurement", EventOptions{Batch: 2, Size: 4096})
	if err != nil {
		t.Fatal(err)
	}
	due := time.Unix(1_700_000_000, 0)
	const workers, perWorker = 8, 200
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			var buf []byte
			for i := range perWorker {
				seq := uint64(w*perWorker + i)
				buf = e.AppendBody(buf[:0], seq, due)
				if want := e.AppendBody(nil, seq, due); !bytes.Equal(buf, want) {
					errs <- fmt.Errorf("seq %d: concurrent render differs", seq)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
