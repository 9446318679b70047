package hv

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

func emulator(t *testing.T, o hvemu.Options) *hvemu.Server {
	t.Helper()
	s, err := hvemu.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// waitReceived waits until the emulator has accepted n messages: the
// producers return when their last write is in the socket, not read.
func waitReceived(t *testing.T, s *hvemu.Server, n int64) hvemu.Stats {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := s.Stats()
		if st.Accepted+st.DroppedTotal() >= n || time.Now().After(deadline) {
			return st
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkAccounting fails unless every scheduled message is accounted for.
func checkAccounting(t *testing.T, c Counts, want int64) {
	t.Helper()
	if c.Scheduled != want || c.Scheduled != c.Sent+c.NotSent || c.Sent != c.Written+c.Failed {
		t.Errorf("accounting broken: %+v (want %d scheduled)", c, want)
	}
}

func TestRunAgainstTheEmulator(t *testing.T) {
	cert, key, _ := testcert.Write(t)
	store, pass := testcert.WriteP12(t, cert, key, "s3cret")
	for _, tc := range []struct {
		name string
		emu  hvemu.Options
		tls  *tlsconf.Options
	}{
		{"plain", hvemu.Options{}, nil},
		{"tls with a PKCS#12 client store", hvemu.Options{TLSCertFile: cert, TLSKeyFile: key, ClientCAFile: cert},
			&tlsconf.Options{CAFile: cert, CertFile: store, CertPassFile: pass}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := emulator(t, tc.emu)
			cfg := Config{Addr: s.Addr(), Producers: 3, Messages: 40, Size: 8192, Interval: 2 * time.Millisecond, RunID: "t1"}
			if tc.tls != nil {
				tcfg, err := tc.tls.Client("")
				if err != nil {
					t.Fatal(err)
				}
				cfg.TLS = tcfg
			}
			out, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			tot := out.Totals()
			checkAccounting(t, tot, 120)
			if tot.Written != 120 || tot.Bytes != 120*(8192+12) {
				t.Errorf("written %d (%d bytes), want 120 (%d)", tot.Written, tot.Bytes, 120*(8192+12))
			}
			st := waitReceived(t, s, 120)
			if st.Accepted != 120 || st.DuplicateEventIDs != 0 || len(st.BySource) != 3 || st.BySource["vesload-hv-2"] != 40 {
				t.Errorf("emulator accepted %d, duplicates %d, by source %v", st.Accepted, st.DuplicateEventIDs, st.BySource)
			}
			r, err := out.Result()
			if err != nil {
				t.Fatal(err)
			}
			if r.Config.Protocol != Protocol || r.HV == nil || r.HV.Sent.Written != 120 || len(r.HV.ByProducer) != 3 ||
				r.Requests.OK != 120 || r.HV.Connects != 3 || r.HV.PeakMBps <= 0 || r.Latency.Count != 120 {
				t.Errorf("result: %+v / %+v", r.Requests, r.HV)
			}
			if r.Config.Shape != "3 producers × 40 every 2ms" {
				t.Errorf("shape %q", r.Config.Shape)
			}
			if (tc.tls != nil) != (r.HV.Handshake.Count == 3) {
				t.Errorf("TLS handshakes recorded: %d", r.HV.Handshake.Count)
			}
		})
	}
}

func TestUnreachableFailsBeforeTheRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	begin := time.Now()
	_, err = Run(context.Background(), Config{Addr: addr, Producers: 2, Messages: 10, Size: 8192, Interval: time.Millisecond, RunID: "u"}, nil)
	if err == nil || !strings.Contains(err.Error(), "connect to "+addr) || Cause(err) != "conn_refused" {
		t.Errorf("error %v (cause %s)", err, Cause(errors.Unwrap(err)))
	}
	if time.Since(begin) > 3*time.Second {
		t.Errorf("took %v", time.Since(begin))
	}
}

func TestWrongPKCS12PasswordIsOneLine(t *testing.T) {
	cert, key, _ := testcert.Write(t)
	store, _ := testcert.WriteP12(t, cert, key, "right")
	_, wrong := testcert.WriteP12(t, cert, key, "wrong")
	_, err := tlsconf.Options{CertFile: store, CertPassFile: wrong}.Client("")
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "wrong password") {
		t.Errorf("error %q", err)
	}
}

// flakySink accepts connections and closes the first one after reading
// a few frames, so that the producer has to reconnect.
func flakySink(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for n := 0; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				if n == 0 {
					io.CopyN(io.Discard, c, 3*(1024+12))
					c.(*net.TCPConn).SetLinger(0) // reset: the producer's next writes fail
					return
				}
				io.Copy(io.Discard, c)
			})
		}
	})
	return ln.Addr().String()
}

func TestReconnectAccountsForEveryMessage(t *testing.T) {
	addr := flakySink(t)
	var mu sync.Mutex
	seen := map[string]int64{}
	cfg := Config{Addr: addr, Producers: 1, Messages: 200, Size: 1024, Interval: time.Millisecond, RunID: "rc",
		Observe: func(outcome string, latency, blocked time.Duration) {
			mu.Lock()
			seen[outcome]++
			mu.Unlock()
		}}
	out, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tot := out.Totals()
	checkAccounting(t, tot, 200)
	mu.Lock()
	if seen["ok"] != tot.Written || seen["not_sent"] != tot.NotSent || 200-seen["ok"]-seen["not_sent"] != tot.Failed {
		t.Errorf("observed %v, counted %+v", seen, tot)
	}
	mu.Unlock()
	r, _ := out.Result()
	if r.HV.Reconnects < 1 || len(r.HV.Disconnects) == 0 || tot.Failed+tot.NotSent == 0 {
		t.Errorf("reconnects %d, disconnects %v, counts %+v", r.HV.Reconnects, r.HV.Disconnects, tot)
	}
	if tot.Written < 100 {
		t.Errorf("only %d written after the reconnect", tot.Written)
	}
}

func TestStopCountsTheRestAsNotSent(t *testing.T) {
	s := emulator(t, hvemu.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	live := &Live{}
	cfg := Config{Addr: s.Addr(), Producers: 2, Messages: 10_000, Size: 500, Interval: time.Millisecond, RunID: "st"}
	go func() {
		for live.Written.Load() < 50 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	out, err := Run(ctx, cfg, live)
	if err != nil {
		t.Fatal(err)
	}
	tot := out.Totals()
	checkAccounting(t, tot, 20_000)
	r, _ := out.Result()
	if !out.Interrupted || r.HV.NotSentBy[NotSentStopped] == 0 || tot.NotSent != r.HV.NotSentBy[NotSentStopped] {
		t.Errorf("interrupted %v, not sent %v, counts %+v", out.Interrupted, r.HV.NotSentBy, tot)
	}
}

// goneSink reads a few frames on the first connection, then closes it and
// its listener: every later message falls due with no connection.
func goneSink(t *testing.T, frames int64, frame int64) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		ln.Close()
		io.CopyN(io.Discard, c, frames*frame)
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
	})
	return ln.Addr().String()
}

func TestDisconnectedMessagesAreErrors(t *testing.T) {
	addr := goneSink(t, 5, 1024+12)
	cfg := Config{Addr: addr, Producers: 1, Messages: 100, Size: 1024, Interval: time.Millisecond, RunID: "dc",
		DialTimeout: 200 * time.Millisecond}
	out, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := out.Result()
	if err != nil {
		t.Fatal(err)
	}
	dc := r.HV.NotSentBy[NotSentDisconnected]
	if dc == 0 {
		t.Fatalf("no message counted as disconnected: %+v", r.HV.Sent)
	}
	q := r.Requests
	if r.Errors[NotSentDisconnected] != dc || q.Errors != r.HV.Sent.Failed+dc {
		t.Errorf("errors %d (%v), want failed %d + disconnected %d", q.Errors, r.Errors, r.HV.Sent.Failed, dc)
	}
	if q.NotSent != 0 {
		t.Errorf("not sent %d: messages lost to a disconnect are not cut off by a stop", q.NotSent)
	}
	if err := r.AccountingError(); err != nil {
		t.Error(err)
	}
	if pct, ok := r.ErrorRatePct(); !ok || pct < 50 {
		t.Errorf("error rate %.2f%% (ok %v), want most of the run", pct, ok)
	}
}

// TestPreflightSeesTheHandshakeRejected: with TLS 1.3 the client's
// handshake ends before the collector checks its certificate; the
// refusal comes as an alert on the first read. The run must fail before
// anything is scheduled, not write into a closed connection.
func TestPreflightSeesTheHandshakeRejected(t *testing.T) {
	cert, key, _ := testcert.Write(t)
	s := emulator(t, hvemu.Options{TLSCertFile: cert, TLSKeyFile: key, ClientCAFile: cert})
	tcfg, err := (&tlsconf.Options{CAFile: cert}).Client("") // no client certificate
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Addr: s.Addr(), Producers: 2, Messages: 10, Size: 1024, Interval: time.Millisecond, RunID: "pf", TLS: tcfg}
	out, err := Run(context.Background(), cfg, nil)
	if err == nil {
		t.Fatalf("run against a listener that refused the client certificate: no error, %+v", out.Totals())
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "certificate") {
		t.Errorf("error %q: want one line naming the certificate", msg)
	}
}

func TestPreflightSeesAnAnsweringListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) // a service that greets: not HV-VES
			c.Close()
		}
	})
	cfg := Config{Addr: ln.Addr().String(), Producers: 1, Messages: 10, Size: 1024, Interval: time.Millisecond, RunID: "pf"}
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "answered") {
		t.Errorf("err %v, want the run refused because the listener answered", err)
	}
}
