package hv

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
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
	var st hvemu.Stats
	waitfor.True(5*time.Second, 5*time.Millisecond, func() bool {
		st = s.Stats()
		return st.Accepted+st.DroppedTotal() >= n
	})
	return st
}

// run runs cfg through the engine with the observers given.
func run(ctx context.Context, cfg Config, obs ...engine.Observer) (*result.Result, error) {
	ec, _, err := EngineConfig(cfg)
	if err != nil {
		return nil, err
	}
	ec.Observers = obs
	eng, err := engine.New(ec)
	if err != nil {
		return nil, err
	}
	return eng.Run(ctx)
}

// checkAccounting fails unless every scheduled message is accounted for,
// in the hv section and in the engine's document alike.
func checkAccounting(t *testing.T, r *result.Result, want int64) {
	t.Helper()
	c := r.HV.Sent
	if c.Scheduled != want || c.Scheduled != c.Sent+c.NotSent || c.Sent != c.Written+c.Failed {
		t.Errorf("accounting broken: %+v (want %d scheduled)", c, want)
	}
	if err := r.AccountingError(); err != nil {
		t.Error(err)
	}
	var byProducer int64
	for _, p := range r.HV.ByProducer {
		byProducer += p.Counts.Written
	}
	if byProducer != c.Written || r.Requests.OK != c.Written {
		t.Errorf("written %d, by producer %d, engine's ok %d", c.Written, byProducer, r.Requests.OK)
	}
}

// outcomes counts what the engine's observers saw, by outcome.
type outcomes struct {
	engine.NopObserver
	mu  sync.Mutex
	n   map[string]int64
	ok  atomic.Int64
	hit func(ok int64)
}

func (o *outcomes) Request(ev *engine.RequestEvent) {
	o.mu.Lock()
	if o.n == nil {
		o.n = map[string]int64{}
	}
	o.n[ev.Outcome]++
	o.mu.Unlock()
	if ev.Outcome == result.OutcomeOK && o.hit != nil {
		o.hit(o.ok.Add(1))
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
			r, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkAccounting(t, r, 120)
			if r.HV.Sent.Written != 120 || r.HV.Sent.Bytes != 120*(8192+12) || r.Bytes.Sent != r.HV.Sent.Bytes {
				t.Errorf("written %d (%d bytes, engine %d), want 120 (%d)", r.HV.Sent.Written, r.HV.Sent.Bytes, r.Bytes.Sent, 120*(8192+12))
			}
			st := waitReceived(t, s, 120)
			if st.Accepted != 120 || st.DuplicateEventIDs != 0 || len(st.BySource) != 3 || st.BySource["vesload-hv-2"] != 40 {
				t.Errorf("emulator accepted %d, duplicates %d, by source %v", st.Accepted, st.DuplicateEventIDs, st.BySource)
			}
			if len(r.HV.ByProducer) != 3 || r.HV.ByProducer[2].Source != "vesload-hv-2" || r.HV.ByProducer[2].Counts.Written != 40 ||
				r.HV.Connects != 3 || r.HV.PeakMBps <= 0 || r.Latency.Count != 120 || r.HV.WriteBlocked.Count != 120 {
				t.Errorf("result: %+v / %+v", r.Requests, r.HV)
			}
			if (tc.tls != nil) != (r.HV.Handshake.Count == 3) || r.HV.Connect.Count != 3 {
				t.Errorf("connects recorded %d, TLS handshakes %d", r.HV.Connect.Count, r.HV.Handshake.Count)
			}
		})
	}
}

func TestRunConfig(t *testing.T) {
	t.Parallel()
	c := Config{Addr: "collector:6061", Producers: 6, Messages: 40, Size: 8192, Interval: 2 * time.Millisecond, RunID: "rc",
		Shard: engine.Shard{Index: 1, Count: 4}}
	rc := c.RunConfig()
	if rc.Shape != "2 producers × 40 every 2ms" || rc.URL != "tcp://collector:6061" || rc.RPS != 1000 || rc.Pool != 2 ||
		rc.Protocol != Protocol || rc.Event != "perf3gpp" {
		t.Errorf("run config %+v", rc)
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
	_, err = run(context.Background(), Config{Addr: addr, Producers: 2, Messages: 10, Size: 8192, Interval: time.Millisecond, RunID: "u"})
	if err == nil || !strings.Contains(err.Error(), "connect to "+addr) || Cause(err) != "conn_refused" {
		t.Errorf("error %v (cause %s)", err, Cause(err))
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

// flakySink accepts connections and resets the first one after reading
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
	seen := &outcomes{}
	cfg := Config{Addr: addr, Producers: 1, Messages: 200, Size: 1024, Interval: time.Millisecond, RunID: "rc", ProbeWait: -1}
	r, err := run(context.Background(), cfg, seen)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, r, 200)
	tot := r.HV.Sent
	seen.mu.Lock()
	if seen.n["ok"] != tot.Written || seen.n[result.ClassDisconnected] != r.HV.NotSentBy[result.ClassDisconnected] ||
		seen.n["ok"]+seen.n[result.ClassDisconnected]+tot.Failed != 200 {
		t.Errorf("observed %v, counted %+v, not sent %v", seen.n, tot, r.HV.NotSentBy)
	}
	seen.mu.Unlock()
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
	defer cancel()
	seen := &outcomes{hit: func(ok int64) {
		if ok == 50 {
			cancel()
		}
	}}
	cfg := Config{Addr: s.Addr(), Producers: 2, Messages: 10_000, Size: 500, Interval: time.Millisecond, RunID: "st"}
	r, err := run(ctx, cfg, seen)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, r, 20_000)
	if !r.Interrupted || r.HV.NotSentBy[NotSentStopped] == 0 || r.HV.Sent.NotSent != r.HV.NotSentBy[NotSentStopped] ||
		r.Requests.NotSent != r.HV.Sent.NotSent {
		t.Errorf("interrupted %v, not sent %v, counts %+v, engine %+v", r.Interrupted, r.HV.NotSentBy, r.HV.Sent, r.Requests)
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

// TestDisconnectedMessagesAreErrors: messages due after the collector
// went away are errors of class disconnected, in the seconds they were
// due, never sent and never "cut off by a stop".
func TestDisconnectedMessagesAreErrors(t *testing.T) {
	addr := goneSink(t, 5, 1024+12)
	cfg := Config{Addr: addr, Producers: 1, Messages: 1500, Size: 1024, Interval: time.Millisecond, RunID: "dc",
		DialTimeout: 200 * time.Millisecond, ProbeWait: -1}
	r, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dc := r.HV.NotSentBy[result.ClassDisconnected]
	if dc == 0 {
		t.Fatalf("no message counted as disconnected: %+v", r.HV.Sent)
	}
	q := r.Requests
	if r.Errors[result.ClassDisconnected] != dc || q.Errors != r.HV.Sent.Failed+dc || q.Sent != r.HV.Sent.Sent {
		t.Errorf("engine %+v, errors %v; want failed %d + disconnected %d, sent %d", q, r.Errors, r.HV.Sent.Failed, dc, r.HV.Sent.Sent)
	}
	if q.NotSent != 0 {
		t.Errorf("not sent %d: messages lost to a disconnect are not cut off by a stop", q.NotSent)
	}
	checkAccounting(t, r, 1500)
	var errs, dcs int64
	for _, s := range r.Timeline {
		errs += s.Errors
		dcs += s.ErrorsByClass[result.ClassDisconnected]
	}
	if errs != q.Errors || dcs != dc || len(r.Timeline) < 2 {
		t.Errorf("the timeline's %d seconds have %d errors (%d disconnected), the run %d (%d)", len(r.Timeline), errs, dcs, q.Errors, dc)
	}
	if pct, ok := r.ErrorRatePct(); !ok || pct < 50 {
		t.Errorf("error rate %.2f%% (ok %v), want most of the run", pct, ok)
	}
	if r.Latency.Count != q.Sent || r.HV.DialErrors[result.ClassConnRefused] == 0 {
		t.Errorf("latencies %d for %d sent; dial errors %v", r.Latency.Count, q.Sent, r.HV.DialErrors)
	}
}

// TestBackPressureIsLatency: a collector that reads slower than the
// producers write blocks their writes; the messages then wait for their
// producer and are written late, which is latency in every second, not
// pool_exhausted.
func TestBackPressureIsLatency(t *testing.T) {
	s := emulator(t, hvemu.Options{ReadRate: 1_500_000})
	// 2 producers × 64 KiB every 10 ms, 6.5 MB/s each for a second,
	// against 1.5 MB/s read from each connection
	cfg := Config{Addr: s.Addr(), Producers: 2, Messages: 100, Size: 65536, Interval: 10 * time.Millisecond, RunID: "bp"}
	r, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, r, 200)
	if r.Errors[result.ClassPoolExhausted] != 0 || r.Requests.OK != 200 {
		t.Errorf("requests %+v, errors %v: back-pressure must be latency", r.Requests, r.Errors)
	}
	for _, sec := range r.Timeline {
		if sec.Sent > 0 && sec.P99Ms <= 0 {
			t.Errorf("second %d: %d sent, p99 %v", sec.T, sec.Sent, sec.P99Ms)
		}
	}
	// a message's latency includes the time blocked in its write
	if r.Latency.Max < r.HV.WriteBlocked.Max || r.HV.WriteBlocked.Max <= 0 || r.HV.WriteBlocked.Count != 200 {
		t.Errorf("latency max %v ms, write blocked %+v", r.Latency.Max, r.HV.WriteBlocked)
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
	r, err := run(context.Background(), cfg)
	if err == nil {
		t.Fatalf("run against a listener that refused the client certificate: no error, %+v", r.Requests)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "certificate") {
		t.Errorf("error %q: want one line naming the certificate", msg)
	}
}

// TestPreflightExplainsAnUnknownAuthority: the dial says what to do
// about a certificate it cannot verify, as the REST transport does.
func TestPreflightExplainsAnUnknownAuthority(t *testing.T) {
	cert, key, _ := testcert.Write(t)
	s := emulator(t, hvemu.Options{TLSCertFile: cert, TLSKeyFile: key})
	tcfg, err := (&tlsconf.Options{}).Client("") // the system's roots: not the test CA
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Addr: s.Addr(), Producers: 1, Messages: 10, Size: 1024, Interval: time.Millisecond, RunID: "pf", TLS: tcfg}
	_, err = run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "--cacert") || Cause(err) != result.ClassTLS {
		t.Errorf("error %v: want the explanation naming --cacert, class tls", err)
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
	if _, err := run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "answered") {
		t.Errorf("err %v, want the run refused because the listener answered", err)
	}
}
