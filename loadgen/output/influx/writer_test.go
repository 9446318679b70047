package influx

import (
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/result"
)

// sink is an InfluxDB write endpoint stand-in that keeps every batch.
type sink struct {
	mu      sync.Mutex
	batches []string
	auth    []string
	status  int
	release chan struct{} // when set, every write waits for it
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.release != nil {
		<-s.release
	}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.batches = append(s.batches, string(body))
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	status := s.status
	s.mu.Unlock()
	if status == 0 {
		status = http.StatusNoContent
	}
	w.WriteHeader(status)
	if status != http.StatusNoContent {
		_, _ = io.WriteString(w, `{"error":"database not found: \"jmeter\""}`)
	}
}

func (s *sink) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.batches, "")
}

// fixedClock ticks one second per reading from 2025-03-04 10:00:00 UTC.
func fixedClock() func() time.Time {
	t := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// runStart is second 0 of the tests' timelines.
var runStart = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)

// ok and failed are outcomes of one request, as the engine counts them.
func ok(latency time.Duration, sent, recv int64) result.Outcome {
	return result.Outcome{Class: result.OutcomeOK, Latency: latency, BytesSent: sent, BytesReceived: recv}
}

func failed(class, messageID string, latency time.Duration, sent, recv int64) result.Outcome {
	return result.Outcome{Class: class, MessageID: messageID, Latency: latency, BytesSent: sent, BytesReceived: recv}
}

// second is the Tally of one second of the timeline, built as the
// engine builds it.
func second(outcomes ...result.Outcome) *result.Tally {
	t := result.NewSecondTally()
	for _, o := range outcomes {
		t.Add(o)
	}
	return &t
}

func newTestWriter(t *testing.T, url string, mod func(*Config)) *Writer {
	t.Helper()
	cfg := Config{URL: url, Application: "ves", Label: "POST eventListener", Now: fixedClock()}
	if mod != nil {
		mod(&cfg)
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLinesAsJMeter checks the points of a short run against the
// listener's layout, line by line.
func TestLinesAsJMeter(t *testing.T) {
	t.Parallel()
	s := &sink{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", nil)
	w.Start(runStart)
	var first []result.Outcome
	for i := range 10 {
		first = append(first, ok(time.Duration(10+i)*time.Millisecond, 1000, 20))
	}
	first = append(first, failed("http_503", "SVC2000", 40*time.Millisecond, 1000, 150),
		failed("timeout", "", 10*time.Second, 1000, 0), failed("pool_exhausted", "", 0, 0, 0))
	w.Timeline(0, second(first...))
	w.Second(7, 13)
	w.Timeline(1, second(ok(5*time.Millisecond, 1000, 20)))
	st := w.Close(0, 5*time.Second)
	if st.Failed != 0 || st.Dropped != 0 || st.Batches != 4 || st.Points != 14 {
		t.Errorf("stats %+v, want 4 batches (start, 2 seconds, end) of 14 points, none failed", st)
	}
	golden.Check(t, "testdata/lines.golden", []byte(s.all()))
}

// TestSecondWithoutSplit: a second's Tally without the split by outcome
// (the engine builds it only for an OutcomeSplitter) gives rows without
// ok and ko latencies, never a panic.
func TestSecondWithoutSplit(t *testing.T) {
	t.Parallel()
	s := &sink{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", nil)
	w.Start(runStart)
	plain := result.NewTally()
	plain.Add(ok(10*time.Millisecond, 1000, 20))
	w.Timeline(0, &plain)
	w.Timeline(1, &result.Tally{})
	w.Close(0, 5*time.Second)
	out := s.all()
	for _, want := range []string{"statut=all count=1,avg=10.004,min=10,", "statut=ok count=1,hit=1,", "transaction=all,statut=all count=1,countError=0,hit=1,"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestShardTag: a shard's points carry its index as the shard tag, so
// the shards of one run do not overwrite each other's series.
func TestShardTag(t *testing.T) {
	t.Parallel()
	s := &sink{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", func(c *Config) { c.Shard = "2" })
	w.Start(runStart)
	w.Timeline(0, second(ok(10*time.Millisecond, 1000, 20), failed("http_503", "", time.Millisecond, 1, 1)))
	w.Second(1, 2)
	w.Close(0, 5*time.Second)
	lines := strings.Split(strings.TrimSpace(s.all()), "\n")
	for _, l := range lines {
		if !strings.Contains(l, ",application=ves,shard=2,") {
			t.Errorf("line without the shard tag: %q", l)
		}
	}
	if len(lines) < 3 {
		t.Errorf("%d lines", len(lines))
	}
}

func TestWriteErrorsCounted(t *testing.T) {
	t.Parallel()
	refused := &sink{status: http.StatusNotFound}
	srv := httptest.NewServer(refused)
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name, url, want string
	}{
		{"refused by InfluxDB", srv.URL + "/write?db=jmeter", `HTTP 404: {"error":"database not found`},
		{"nothing listening", "http://" + closedAddr + "/write?db=jmeter", "connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newTestWriter(t, tc.url, nil)
			w.Start(runStart)
			w.Timeline(0, second(ok(time.Millisecond, 1, 1)))
			w.Second(1, 1)
			st := w.Close(0, 5*time.Second)
			// start, one second, the last (partial) second, end
			if st.Failed != 4 || st.Batches != 0 || !strings.Contains(st.LastError, tc.want) {
				t.Errorf("stats %+v, want 4 failed batches and %q", st, tc.want)
			}
		})
	}
}

// TestSlowInfluxNeverBlocks: with InfluxDB stuck, seconds keep coming
// without waiting, and what does not fit the queue is counted.
func TestSlowInfluxNeverBlocks(t *testing.T) {
	t.Parallel()
	s := &sink{release: make(chan struct{})}
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer close(s.release)
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", func(c *Config) { c.Queue = 2 })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			w.Timeline(int64(i), second(ok(time.Millisecond, 1, 1)))
			w.Second(1, int64(i))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Second blocked on a stuck InfluxDB")
	}
	st := w.Close(0, 50*time.Millisecond)
	// One batch is in the stuck write, two wait in the queue: of the 21
	// (20 seconds and the last), at least 18 were dropped.
	if st.Dropped < 18 || !strings.Contains(st.LastError, "queue was full") {
		t.Errorf("stats %+v, want at least 18 dropped batches", st)
	}
}

func TestCredentialsStayHidden(t *testing.T) {
	t.Parallel()
	s := &sink{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	tests := []struct {
		url, password, wantAuth, wantURL string
	}{
		{"http://vl:s3cr3t@" + host + "/write?db=jmeter", "", "vl:s3cr3t", "http://vl:xxxxx@" + host + "/write?db=jmeter"},
		{"http://" + host + "/write?db=jmeter&u=vl&p=s3cr3t", "", "vl:s3cr3t", "http://" + host + "/write?db=jmeter&u=vl&p=xxxxx"},
		{"http://vl@" + host + "/write?db=jmeter", "fr0m-file", "vl:fr0m-file", "http://vl@" + host + "/write?db=jmeter"},
		{"http://" + host + "/write?db=jmeter", "", "", "http://" + host + "/write?db=jmeter"},
	}
	for _, tc := range tests {
		w := newTestWriter(t, tc.url, func(c *Config) { c.Password = tc.password })
		w.Start(runStart)
		st := w.Close(0, 5*time.Second)
		if st.URL != tc.wantURL || strings.Contains(st.URL, "s3cr3t") {
			t.Errorf("%s: stats URL %q, want %q", tc.url, st.URL, tc.wantURL)
		}
		s.mu.Lock()
		got := s.auth[len(s.auth)-1]
		s.mu.Unlock()
		want := ""
		if tc.wantAuth != "" {
			want = "Basic " + base64.StdEncoding.EncodeToString([]byte(tc.wantAuth))
		}
		if got != want {
			t.Errorf("%s: Authorization %q, want %q", tc.url, got, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{URL: "influx:8086/write?db=x"}, "scheme must be http or https"},
		{Config{URL: "http:///write?db=x"}, "no host"},
		{Config{URL: "http://influx:8086/write"}, "no database"},
		{Config{URL: "http://u:s3cr3t@influx:8086/write"}, "no database"},
		{Config{URL: "http://influx:8086/write?db=x", Percentiles: []float64{0}}, "percentile 0"},
		{Config{URL: "http://influx:8086/write?db=x", Percentiles: []float64{101}}, "percentile 101"},
		{Config{URL: "http://in flux/write?db=x"}, "influx url: not a URL (want http://HOST:PORT/write?db=NAME)"},
	}
	for _, tc := range tests {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("New(%q): %v, want an error with %q and no password", tc.cfg.URL, err, tc.want)
		}
	}
}

func TestPctField(t *testing.T) {
	t.Parallel()
	for p, want := range map[float64]string{99: "pct99.0", 95: "pct95.0", 99.9: "pct99.9", 50: "pct50.0", 99.99: "pct99.99"} {
		if got := pctField(p); got != want {
			t.Errorf("pctField(%v) = %q, want %q", p, got, want)
		}
	}
}

// FuzzConfigURL: any write URL is either refused with an error or
// accepted, never a panic, and its password never shows.
func FuzzConfigURL(f *testing.F) {
	for _, s := range []string{"http://u:pw@influx:8086/write?db=jmeter", "http://h/write?db=a&u=x&p=pw", "https://h:1/write?db=x&rp=one_week", "%", "http://[::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		endpoint, _, pass, err := parseURL(raw)
		if err != nil {
			if pass != "" && len(pass) > 3 && strings.Contains(err.Error(), pass) {
				t.Fatalf("error shows the password: %v", err)
			}
			return
		}
		if pass != "" && len(pass) > 3 && (strings.Contains(redacted(raw), pass) || strings.Contains(endpoint, ":"+pass+"@")) {
			t.Fatalf("password %q shows: %q / %q", pass, redacted(raw), endpoint)
		}
	})
}

// TestNeverStartedWritesNothing: a run that failed before it began
// leaves no points and no end annotation.
func TestNeverStartedWritesNothing(t *testing.T) {
	t.Parallel()
	s := &sink{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", nil)
	st := w.Close(0, 5*time.Second)
	if st.Batches != 0 || st.Failed != 0 || s.all() != "" {
		t.Errorf("stats %+v, body %q: want nothing written", st, s.all())
	}
}

// TestFinalFlushIsBounded: a never-answering InfluxDB holds the end of a
// run for FinalWait at most, not a write timeout per batch, and every
// batch not written, in the queue or in the write that hung, is counted
// as dropped.
func TestFinalFlushIsBounded(t *testing.T) {
	t.Parallel()
	if FinalWait > 2*time.Second {
		t.Fatalf("FinalWait %v: the end of a run may wait 2 s at most", FinalWait)
	}
	s := &sink{release: make(chan struct{})}
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer close(s.release)
	w := newTestWriter(t, srv.URL+"/write?db=jmeter", func(c *Config) { c.Timeout = time.Minute })
	w.Start(runStart)
	for i := range 3 {
		w.Timeline(int64(i), second(ok(time.Millisecond, 1, 1)))
		w.Second(1, int64(i))
	}
	begin := time.Now()
	st := w.Close(0, FinalWait)
	if took := time.Since(begin); took > FinalWait+time.Second {
		t.Errorf("Close took %v, want about %v", took, FinalWait)
	}
	// start, three seconds, the last (partial) second, end: none written.
	if st.Batches != 0 || st.Failed+st.Dropped != 6 {
		t.Errorf("stats %+v, want the 6 batches counted as not written", st)
	}
}
