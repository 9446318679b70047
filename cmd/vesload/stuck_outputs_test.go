package main

import (
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

// silentServer accepts connections and never reads or answers them, as
// a hung InfluxDB does; stop ends the connections it holds.
func silentServer(t *testing.T) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	return ln.Addr().String(), func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}
}

// TestInfluxThatNeverAnswersLosesOnlyItself: an InfluxDB that accepts
// connections and never answers costs the InfluxDB record and nothing
// else: every request is sent on time, the result names --influx-url with
// the batches it lost, and the run exits 1 once the result is written.
func TestInfluxThatNeverAnswersLosesOnlyItself(t *testing.T) {
	t.Parallel()
	addr, stop := silentServer(t)
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 60*time.Second, "-rps", "200", "-duration", "3s", "-o", out, "-q",
		"--influx-url", "http://"+addr+"/write?db=jmeter")
	if o.code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Requests.Sent != 600 || res.Errors["pool_exhausted"] != 0 {
		t.Errorf("sent %d, pool_exhausted %d; want all 600 sent", res.Requests.Sent, res.Errors["pool_exhausted"])
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "--influx-url" || res.Outputs[0].Batches == 0 {
		t.Errorf("outputs lost %+v, want --influx-url with its batches", res.Outputs)
	}
	if res.Influx == nil || res.Influx.Batches != 0 {
		t.Errorf("influx %+v, want no batch written", res.Influx)
	}
}

// TestMetricsScraperThatStopsLosesNothing: a scraper that asks for the
// metrics and stops reading the answer, its connection kept open, holds
// only its own connection: every request is sent on time and the run
// passes.
func TestMetricsScraperThatStopsLosesNothing(t *testing.T) {
	t.Parallel()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-rps", "200", "-duration", "3s", "--metrics-addr", addr, "-o", out, "-q")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var c *net.TCPConn
	waitfor.True(10*time.Second, 20*time.Millisecond, func() bool { // the process's listener
		if conn, err := net.Dial("tcp", addr); err == nil {
			c = conn.(*net.TCPConn)
		}
		return c != nil
	})
	if c == nil {
		t.Fatalf("nothing listens at %s", addr)
	}
	defer c.Close()
	_ = c.SetReadBuffer(512)
	if _, err := c.Write([]byte("GET /metrics HTTP/1.1\r\nHost: vesload\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 64)
	if _, err := c.Read(head); err != nil {
		t.Fatalf("the scrape's first bytes: %v", err)
	}
	// Then the scraper reads nothing more and keeps the connection.
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the run did not end within a minute\nstderr: %s", stderr.String())
	}
	if err != nil {
		t.Fatalf("exit: %v\nstderr: %s", err, stderr.String())
	}
	res := readResult(t, out)
	if res.Requests.Sent != 600 || res.Errors["pool_exhausted"] != 0 || len(res.Outputs) != 0 {
		t.Errorf("sent %d, pool_exhausted %d, outputs lost %+v; want all 600 sent, nothing lost",
			res.Requests.Sent, res.Errors["pool_exhausted"], res.Outputs)
	}
}
