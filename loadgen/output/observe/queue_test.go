package observe

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/hdrlog"
	"github.com/vesload/vesload/loadgen/output/jtl"
	"github.com/vesload/vesload/report/result"
)

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errFull = errors.New("no space left on device")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// stalled blocks every write until released: a disk that stopped.
type stalled struct {
	release chan struct{}
	once    sync.Once
}

func (s *stalled) Write(p []byte) (int, error) { <-s.release; return len(p), nil }
func (s *stalled) open()                       { s.once.Do(func() { close(s.release) }) }

var ev = engine.RequestEvent{Due: time.UnixMilli(1_700_000_000_000), Latency: time.Millisecond, Outcome: "ok", Code: 202}

// TestJTLFailureStopsTheStream: a write error (a full disk) stops the JTL
// and is reported with the rows that reached the file; the requests after
// it are not held up and nothing panics.
func TestJTLFailureStopsTheStream(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		room  int
		rows  int64
		fails bool
	}{
		{"full from the start", 0, 0, true},
		{"room for everything", 1 << 20, 1000, false},
	} {
		w, err := jtl.NewWriter(&failAfter{n: c.room}, "http://collector/eventListener/v7")
		if err != nil {
			t.Fatal(err)
		}
		j := NewJTL(w, "fault", "--jtl r.jtl")
		for range 1000 {
			j.Request(&ev)
		}
		r := j.Close()
		if (r.Err != nil) != c.fails || r.Rows != c.rows || r.Dropped != 1000-c.rows {
			t.Errorf("%s: report %+v, want %d rows, %d dropped, failed %v", c.name, r, c.rows, 1000-c.rows, c.fails)
		}
		if c.fails && !strings.Contains(r.Warning(), "--jtl r.jtl stopped after 0 rows: no space left on device") {
			t.Errorf("%s: warning %q", c.name, r.Warning())
		}
	}
}

// TestJTLNeverWaitsForTheDisk: with the file's writes stalled, Request
// still returns at once; what the queue cannot hold is dropped and
// counted, and the rows queued are written once the disk comes back.
func TestJTLNeverWaitsForTheDisk(t *testing.T) {
	t.Parallel()
	disk := &stalled{release: make(chan struct{})}
	defer disk.open()
	w, err := jtl.NewWriter(disk, "http://collector/eventListener/v7")
	if err != nil {
		t.Fatal(err)
	}
	j := NewJTL(w, "fault", "--jtl r.jtl")
	const n = QueueSize + 5000
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range n {
			j.Request(&ev)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Request waited for a stalled disk")
	}
	disk.open()
	r := j.Close()
	if r.Err != nil || r.Dropped == 0 || r.Rows+r.Dropped != n {
		t.Errorf("report %+v, want %d events written or dropped, some dropped", r, n)
	}
	if !strings.Contains(r.Warning(), "rows dropped") {
		t.Errorf("warning %q", r.Warning())
	}
}

// TestJTLRequestAllocatesNothing: queueing a row is on the per-request
// path and must not allocate.
func TestJTLRequestAllocatesNothing(t *testing.T) {
	w, err := jtl.NewWriter(io.Discard, "http://collector/eventListener/v7")
	if err != nil {
		t.Fatal(err)
	}
	j := NewJTL(w, "fault", "--jtl r.jtl")
	defer j.Close()
	if a := testing.AllocsPerRun(1000, func() { j.Request(&ev) }); a != 0 {
		t.Errorf("Request allocates %v times per event", a)
	}
}

// TestHdrLogFailureStops: a failing HdrHistogram log stops and says so.
func TestHdrLogFailureStops(t *testing.T) {
	t.Parallel()
	start := time.UnixMilli(1_700_000_000_000)
	log, err := hdrlog.New(io.Discard, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHdrLog(log, func() error { return errFull }, "--hdr-log r.hlog")
	h.Begin(start)
	tl := result.NewTally()
	tl.Add(result.Outcome{Class: result.OutcomeOK, Latency: time.Millisecond})
	h.Timeline(result.Second{T: 0}, &tl)
	r := h.Close()
	if !errors.Is(r.Err, errFull) || r.Rows != 0 || !strings.HasPrefix(r.Warning(), "--hdr-log r.hlog stopped after 0 rows") {
		t.Errorf("report %+v warning %q", r, r.Warning())
	}
}
