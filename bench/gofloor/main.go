// Command gofloor is the smallest open-model HTTP load generator Go
// offers, written as Go's documentation teaches: one goroutine per
// connection, each sleeping on a timer until its next request is due, a
// plain net.Conn, a request built once, no figures kept but the count of
// answers. bench/peers.sh runs it beside wrk2 and vesload to show what the
// Go runtime itself costs per request at a given rate: vesload's CPU per
// request is read against this floor as well as against wrk2's event loop
// in C (bench/README.md, "The Go floor").
//
//	gofloor --addr 127.0.0.1:8080 --path /eventListener/v7 --body event.json --rate 1000 --duration 10s --conns 50
//
// It prints "answered N" and exits 0, or one line and exit 2 on bad input,
// exit 1 when a connection fails.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("gofloor", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "", "host:port of the HTTP server")
	path := fs.String("path", "/", "request path")
	bodyFile := fs.String("body", "", "file whose bytes are POSTed as application/json")
	rate := fs.Int("rate", 0, "requests per second")
	dur := fs.Duration("duration", 10*time.Second, "how long to send")
	conns := fs.Int("conns", 50, "connections, each paced at rate/conns")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(stderr, "gofloor:", err)
		return 2
	}
	if *addr == "" || *rate <= 0 || *conns <= 0 || *dur <= 0 {
		fmt.Fprintln(stderr, "gofloor: --addr, and a positive --rate, --conns and --duration, are required")
		return 2
	}
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		fmt.Fprintln(stderr, "gofloor: --body:", err)
		return 2
	}
	req := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		*path, *addr, len(body), body)
	n, err := load(*addr, req, *rate, *conns, *dur)
	if err != nil {
		fmt.Fprintln(stderr, "gofloor:", err)
		return 1
	}
	fmt.Fprintln(stdout, "answered", n)
	return 0
}

// load sends req on conns connections, each paced at rate/conns and
// phase-shifted so that the whole sends rate requests a second, and
// returns how many were answered with a 2xx status.
func load(addr string, req []byte, rate, conns int, dur time.Duration) (int64, error) {
	per := time.Duration(float64(time.Second) * float64(conns) / float64(rate))
	start := time.Now()
	end := start.Add(dur)
	var (
		wg       sync.WaitGroup
		answered atomic.Int64
		mu       sync.Mutex
		first    error
	)
	for c := range conns {
		wg.Go(func() {
			if err := connection(addr, req, start.Add(time.Duration(c)*per/time.Duration(conns)), per, end, &answered); err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return answered.Load(), first
}

// connection sends req every per from due until end, reading each answer
// before the next is due (a late answer makes the next request late, as
// in wrk2's connections).
func connection(addr string, req []byte, due time.Time, per time.Duration, end time.Time, answered *atomic.Int64) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	buf := make([]byte, 4096)
	for due.Before(end) {
		time.Sleep(time.Until(due))
		if _, err := c.Write(req); err != nil {
			return err
		}
		n, err := c.Read(buf)
		if err != nil {
			return err
		}
		if status, ok := statusOf(buf[:n]); ok && status/100 == 2 {
			answered.Add(1)
		}
		due = due.Add(per)
	}
	return nil
}

// statusOf reads the status code of an HTTP/1.1 answer's first line.
func statusOf(b []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 3 {
		return 0, false
	}
	s, err := strconv.Atoi(string(rest[:3]))
	return s, err == nil
}
