package dashboard

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
)

func TestListenAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: ":0", want: "127.0.0.1:0"},
		{in: ":5665", want: "127.0.0.1:5665"},
		{in: "5665", want: "127.0.0.1:5665"},
		{in: "127.0.0.1:0", want: "127.0.0.1:0"},
		{in: "0.0.0.0:5665", want: "0.0.0.0:5665"},
		{in: "[::1]:0", want: "[::1]:0"},
		{in: "", bad: true},
		{in: "localhost", bad: true},
		{in: "127.0.0.1:port", bad: true},
		{in: "127.0.0.1:99999", bad: true},
		{in: "a:b:c", bad: true},
	}
	for _, tc := range tests {
		got, err := ListenAddr(tc.in)
		if tc.bad != (err != nil) || got != tc.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// snapshot is a run's snapshot after sec seconds, as the engine hands
// it over.
func snapshot(sec int) *result.Result {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &result.Result{
		Schema: result.Schema, Started: start, Ended: start.Add(time.Duration(sec) * time.Second),
		DurationS: float64(sec), Interrupted: true, Config: result.RunConfig{DurationS: 60, RPS: 10},
		Warnings: []string{checkpointNote},
	}
	for i := range sec {
		r.Timeline = append(r.Timeline, result.Second{T: int64(i), Scheduled: 10, Sent: 10, OK: 10})
	}
	r.Requests = result.Requests{Scheduled: int64(10 * sec), Sent: int64(10 * sec), OK: int64(10 * sec)}
	return r
}

// TestStuckBrowserIsDroppedAndCounted feeds snapshots while one browser
// reads nothing: no hand-over waits, the updates it had no room for are
// counted, a browser that comes late gets the latest update first, and
// the final result carries the count.
func TestStuckBrowserIsDroppedAndCounted(t *testing.T) {
	t.Parallel()
	s, err := Listen(Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	host := strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/")
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
	}}
	stuck, err := d.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprintf(stuck, "GET /events HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	waitClients(t, s, 1)

	const n = 60
	for sec := 1; sec <= n; sec++ {
		begin := time.Now()
		s.Checkpoint(snapshot(sec))
		if d := time.Since(begin); d > 100*time.Millisecond {
			t.Fatalf("Checkpoint waited %v", d)
		}
		// The renderer keeps up, as it would in a second.
		waitfor.Until(t, 10*time.Second, "the update rendered", func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.updates >= int64(sec)
		})
	}
	s.stopFeed()
	// A late browser starts with the latest update: the whole run so far.
	resp, err := http.Get(s.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	resp.Body.Close()
	if err != nil || !strings.Contains(line, fmt.Sprintf("Running: %d s of 60 s, %d requests sent", n, 10*n)) {
		t.Fatalf("a late browser's first update: %.200q, %v", line, err)
	}
	dropped := s.Dropped()
	if dropped == 0 {
		t.Fatal("a browser that read nothing had room for every update")
	}
	final := snapshot(n)
	final.Interrupted, final.Warnings = false, nil
	s.Complete(final)
	s.Finish(final)
	want := fmt.Sprintf("dashboard: %d of its updates were dropped", dropped)
	if len(final.Warnings) != 1 || !strings.HasPrefix(final.Warnings[0], want) {
		t.Fatalf("final warnings %q, want %q", final.Warnings, want)
	}
	resp, err = http.Get(s.URL() + "report.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
		t.Fatalf("report.html: %d, without the warning", resp.StatusCode)
	}
}

func waitClients(t *testing.T, s *Server, n int) {
	t.Helper()
	waitfor.Until(t, 10*time.Second, fmt.Sprintf("%d browsers connected", n), func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.clients) >= n
	})
}
