package rendezvous

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// ListenAddr is where shard 0 listens for a rendezvous named hostport:
// on the address itself when its host is an IP (a local harness gives
// one), else on every interface at its port (a pod behind a headless
// Service is reached by a name that is not its own).
func ListenAddr(hostport string) string {
	host, port, _ := net.SplitHostPort(hostport)
	if net.ParseIP(host) != nil {
		return hostport
	}
	return ":" + port
}

// Serve serves shard 0's coordinator c on ln, and returns the function
// that stops it: the shards still waiting get shard 0's answer before it
// goes.
func Serve(ln net.Listener, c *Coordinator) func() {
	srv := &http.Server{Handler: c, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }() // ends with Shutdown
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}
	return stop
}

// Agree waits until every shard is ready and returns the start instant
// they agreed on: shard 0 through its coordinator c, any other shard (c
// nil) by asking shard 0 at url. When ctx ends first, shard 0 tells the
// shards waiting that the run has no start.
func Agree(ctx context.Context, c *Coordinator, url string, r Ready, clk clock.Clock) (time.Time, error) {
	if c == nil {
		return Join(ctx, &http.Client{}, url, r, clk)
	}
	at, err := c.Arrive(ctx, r)
	if err != nil {
		err = fmt.Errorf("%s did not arrive: %w", c.missing(), err)
		c.Fail(err)
	}
	return at, err
}
