package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/report/result"
)

func TestPickTable(t *testing.T) {
	t.Parallel()
	reqs := []Request{{Name: "a", Weight: 3}, {Name: "b", Weight: 1}, {Name: "c", Weight: 2}}
	table := pickTable(reqs)
	if len(table) != 6 {
		t.Fatalf("table %v, want 6 slots", table)
	}
	counts := map[uint8]int{}
	for _, k := range table {
		counts[k]++
	}
	if counts[0] != 3 || counts[1] != 1 || counts[2] != 2 {
		t.Fatalf("table %v: shares %v, want 3:1:2", table, counts)
	}
	// Smooth: the heaviest kind never takes more than two slots in a row here.
	if strings.Contains(string(table), string([]byte{0, 0, 0})) {
		t.Fatalf("table %v puts the heavy kind in a block", table)
	}
}

func TestMixRejects(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:1/eventListener/v7"
	tests := []struct {
		name string
		mix  []Request
	}{
		{"no body", []Request{{Name: "a", Weight: 1}}},
		{"zero weight", []Request{{Name: "a", Body: seqBody{}}}},
		{"duplicate name", []Request{{Name: "a", Body: seqBody{}, Weight: 1}, {Name: "a", Body: seqBody{}, Weight: 1}}},
	}
	for _, tt := range tests {
		cfg := testConfig(t, base, 1, time.Second)
		cfg.Mix = tt.mix
		cfg.REST.Kinds = make([]rest.Kind, len(tt.mix))
		for i := range cfg.REST.Kinds {
			cfg.REST.Kinds[i].URL = base
		}
		if _, err := newREST(cfg); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}

func TestMixRun(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	paths := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		paths[r.URL.Path]++
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/eventBatch") {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL+"/eventListener/v7", 100, time.Second)
	cfg.Pool = 100 // never short of connections, even on a loaded machine
	cfg.Mix = []Request{{Name: "single", Body: seqBody{}, Weight: 3}, {Name: "batch", Body: seqBody{}, Weight: 1}}
	cfg.REST.Kinds = []rest.Kind{
		{Name: "single", URL: srv.URL + "/eventListener/v7"},
		{Name: "batch", URL: srv.URL + "/eventListener/v7/eventBatch", Headers: []transport.Header{{Name: "X-Kind", Value: "batch"}}},
	}
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if paths["/eventListener/v7"] != 75 || paths["/eventListener/v7/eventBatch"] != 25 {
		t.Fatalf("server saw %v, want 75 single and 25 batch", paths)
	}
	if len(res.ByRequest) != 2 {
		t.Fatalf("by request: %+v", res.ByRequest)
	}
	single, batch := res.ByRequest[0], res.ByRequest[1]
	if h, err := result.DecodeHistogram(single.Histogram); err != nil || h.TotalCount() != 75 {
		t.Fatalf("single's histogram: %v", err)
	}
	if single.Name != "single" || single.Requests.OK != 75 || single.Latency.Count != 75 {
		t.Fatalf("single: %+v", single)
	}
	if batch.Name != "batch" || batch.Requests.Errors != 25 || batch.Errors["http_503"] != 25 {
		t.Fatalf("batch: %+v", batch)
	}
}
