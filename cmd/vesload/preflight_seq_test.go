package main

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The preflight's request is one more than the run's figures count: the
// summary, the result and the HTML page name it, so that a target's own
// count (one more) is explained. Its sequence and JMeter's ${__counter}
// are 32-bit signed integers, as Java collectors read a VES event's
// sequence, and no request of the run has its counter.
func TestPreflightNamedAndItsCounterAnInt32(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var counters []int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Event struct {
				Header struct {
					Sequence int64 `json:"sequence"`
				} `json:"commonEventHeader"`
			} `json:"event"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		counters = append(counters, body.Event.Header.Sequence)
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	dir := t.TempDir()
	tpl, out, page := filepath.Join(dir, "body.json"), filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	if err := os.WriteFile(tpl, []byte(`{"event":{"commonEventHeader":{"eventId":"{{.EventID}}","sequence":${__counter(,)}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cliRun(runRun, "--url", srv.URL+"/eventListener/v7", "--body-file", tpl,
		"-rps", "20", "-duration", "1s", "-q", "-o", out, "--html", page)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := readResult(t, out)
	mu.Lock()
	defer mu.Unlock()
	if int64(len(counters)) != res.Requests.Sent+1 || res.Preflight == nil {
		t.Fatalf("the target counted %d requests, the run sent %d, preflight %+v: want the run's and the preflight's",
			len(counters), res.Requests.Sent, res.Preflight)
	}
	seen := map[int64]bool{}
	for _, c := range counters {
		if c < math.MinInt32 || c > math.MaxInt32 || seen[c] {
			t.Errorf("${__counter} %d: want distinct 32-bit signed integers; all: %v", c, counters)
		}
		seen[c] = true
	}
	const named = "preflight: 1 request before the schedule, in none of these figures"
	if !strings.Contains(stdout, named) {
		t.Errorf("the summary does not name the preflight:\n%s", stdout)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "1 request before the schedule") {
		t.Errorf("the HTML page does not name the preflight (%v)", err)
	}
}
