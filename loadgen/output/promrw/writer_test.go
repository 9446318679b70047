package promrw

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// receiver is a remote write endpoint of the test: it decodes each
// request as Prometheus does (snappy, then the 1.0 WriteRequest) and
// keeps what it got.
type receiver struct {
	status int
	// hold, when set, keeps every request until it is closed.
	hold chan struct{}

	mu      sync.Mutex
	auth    []string
	samples int
	names   map[string]bool
	bad     []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if r.hold != nil {
		select {
		case <-r.hold:
		case <-req.Context().Done():
			return
		}
	}
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.auth = append(r.auth, req.Header.Get("Authorization"))
	if req.Header.Get("Content-Encoding") != "snappy" || req.Header.Get("X-Prometheus-Remote-Write-Version") != "0.1.0" {
		r.bad = append(r.bad, "headers "+req.Header.Get("Content-Encoding")+" "+req.Header.Get("X-Prometheus-Remote-Write-Version"))
	}
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		r.bad = append(r.bad, "snappy: "+err.Error())
	} else if err := r.decode(raw); err != nil {
		r.bad = append(r.bad, "protobuf: "+err.Error())
	}
	w.WriteHeader(r.status)
}

// decode reads a WriteRequest's series, counting samples and metric
// names; r.mu is held.
func (r *receiver) decode(b []byte) error {
	return fields(b, func(num protowire.Number, v []byte) error {
		if num != 1 {
			return nil
		}
		return fields(v, func(num protowire.Number, v []byte) error {
			switch num {
			case 1:
				var name, value string
				if err := fields(v, func(num protowire.Number, v []byte) error {
					if num == 1 {
						name = string(v)
					} else {
						value = string(v)
					}
					return nil
				}); err != nil {
					return err
				}
				if name == "__name__" {
					if r.names == nil {
						r.names = map[string]bool{}
					}
					r.names[value] = true
				}
			case 2:
				r.samples++
			}
			return nil
		})
	})
}

// fields calls f with each length-delimited field of b; other wire types
// are skipped.
func fields(b []byte, f func(protowire.Number, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		if err := f(num, v); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func ok(latency time.Duration) result.Outcome {
	return result.Outcome{Class: result.OutcomeOK, Latency: latency, BytesSent: 900, BytesReceived: 120}
}

func failed(class string) result.Outcome {
	return result.Outcome{Class: class, Latency: 3 * time.Millisecond, BytesSent: 900, BytesReceived: 80}
}

// second is the Tally of one second of the timeline as the engine builds
// it.
func second(outcomes ...result.Outcome) *result.Tally {
	t := result.NewTally()
	for _, o := range outcomes {
		t.Add(o)
	}
	return &t
}

// feed runs n seconds through o as the engine would, second i holding
// i+1 successes and, every other second, one http_503.
func feed(o *Observer, start time.Time, n int) (total, oks int64) {
	o.Begin(start)
	for i := range n {
		var outs []result.Outcome
		for range i + 1 {
			outs = append(outs, ok(time.Duration(i+1)*time.Millisecond))
		}
		if i%2 == 1 {
			outs = append(outs, failed("http_503"))
		}
		t := second(outs...)
		o.Timeline(result.Second{T: int64(i)}, t)
		o.Second(&engine.Progress{InFlight: 2})
		total += t.OK + t.Errors
		oks += t.OK
	}
	return total, oks
}

func newObserver(t *testing.T, cfg Config) *Observer {
	t.Helper()
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Observer{W: w} // every test finishes it; a test whose feed hung fails without waiting for it
}

// TestWrites: every batch reaches a receiver that decodes it as
// Prometheus does, with its credentials, and the result counts what
// reached it; a receiver that refuses, is down or hangs costs batches
// counted in the result (written + failed + dropped = every second and
// the last flush), a warning and an output loss, and the run's
// observer calls never wait for it.
func TestWrites(t *testing.T) {
	t.Parallel()
	const seconds = 6
	tests := []struct {
		name    string
		status  int
		hold    bool
		down    bool
		tls     bool
		mod     func(*Config)
		auth    string
		written bool
		failed  bool
	}{
		{name: "written", status: http.StatusNoContent, written: true},
		{name: "basic auth", status: http.StatusNoContent, written: true, mod: func(c *Config) { c.User, c.Password = "vl", "s3cret" },
			auth: "Basic " + base64.StdEncoding.EncodeToString([]byte("vl:s3cret"))},
		{name: "bearer", status: http.StatusNoContent, written: true, mod: func(c *Config) { c.Bearer = "s3cret" }, auth: "Bearer s3cret"},
		{name: "tls", status: http.StatusNoContent, written: true, tls: true},
		{name: "tls unknown authority", status: http.StatusNoContent, failed: true, tls: true, mod: func(c *Config) { c.TLS.CAFile = "" }},
		{name: "refused", status: http.StatusBadRequest, failed: true},
		{name: "down", down: true, failed: true},
		{name: "hangs", status: http.StatusNoContent, hold: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rcv := &receiver{status: tt.status}
			if tt.hold {
				rcv.hold = make(chan struct{})
			}
			srv := httptest.NewUnstartedServer(rcv)
			cfg := Config{Job: "t", Timeout: 10 * time.Second}
			if tt.tls {
				srv.StartTLS()
				cfg.TLS.CAFile = writeFile(t, "ca.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
			} else {
				srv.Start()
			}
			url := srv.URL + "/api/v1/write"
			cfg.URL = url
			if tt.down {
				srv.Close()
			} else {
				t.Cleanup(srv.Close)
			}
			if tt.hold {
				t.Cleanup(func() { close(rcv.hold) })
			}
			if tt.hold {
				cfg.Queue = 2 // the seconds beyond it are dropped at once
			}
			if tt.mod != nil {
				tt.mod(&cfg)
			}
			o := newObserver(t, cfg)
			fed := make(chan struct{})
			go func() {
				defer close(fed)
				feed(o, time.Now().Add(-time.Minute), seconds)
			}()
			select {
			case <-fed:
			case <-time.After(5 * time.Second):
				t.Fatal("the observer's calls waited for the endpoint")
			}
			var res result.Result
			wait := 10 * time.Second
			if tt.hold {
				wait = 100 * time.Millisecond
			}
			o.Finish(&res, wait)
			if len(res.Written) != 1 {
				t.Fatalf("written %+v, want one section", res.Written)
			}
			st := res.Written[0]
			if st.Output != "--remote-write-url" || st.URL != url {
				t.Errorf("section %+v names %s at %s", st, st.Output, st.URL)
			}
			if n := st.Batches + st.Failed + st.Dropped; n != seconds+1 {
				t.Errorf("%d written + %d failed + %d dropped = %d batches, want %d", st.Batches, st.Failed, st.Dropped, n, seconds+1)
			}
			rcv.mu.Lock()
			defer rcv.mu.Unlock()
			switch {
			case tt.written:
				if st.Batches != seconds+1 || st.Samples != int64(rcv.samples) || rcv.samples == 0 || len(rcv.bad) > 0 {
					t.Errorf("section %+v, receiver took %d samples (%v), want every batch and its samples", st, rcv.samples, rcv.bad)
				}
				for _, name := range []string{"vesload_run_requests_total", "vesload_run_latency_seconds", "vesload_run_in_flight", "vesload_run_bytes_sent_total"} {
					if !rcv.names[name] {
						t.Errorf("no series %s among %v", name, rcv.names)
					}
				}
				if len(res.Outputs) != 0 || len(res.Warnings) != 0 {
					t.Errorf("losses %+v, warnings %q: want none", res.Outputs, res.Warnings)
				}
			case tt.failed && st.Failed == 0, tt.hold && st.Dropped == 0:
				t.Errorf("section %+v: want the lost batches counted", st)
			}
			for _, a := range rcv.auth {
				if a != tt.auth {
					t.Errorf("Authorization %q, want %q", a, tt.auth)
				}
			}
			if !tt.written {
				if len(res.Outputs) != 1 || res.Outputs[0].Name != "--remote-write-url" || res.Outputs[0].Batches != st.Failed+st.Dropped {
					t.Errorf("outputs lost %+v, want --remote-write-url with %d batches", res.Outputs, st.Failed+st.Dropped)
				}
				if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "Prometheus remote write: ") {
					t.Errorf("warnings %q", res.Warnings)
				}
			}
			doc, err := json.Marshal(&res)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(doc), "s3cret") {
				t.Errorf("the result shows the password: %s", doc)
			}
		})
	}
}
