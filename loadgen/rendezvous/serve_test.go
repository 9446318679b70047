package rendezvous

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

func TestListenAddr(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"127.0.0.1:9465", "127.0.0.1:9465"},
		{"[::1]:9465", "[::1]:9465"},
		{"vesload-r42-0.vesload-r42:9465", ":9465"},
	} {
		if got := ListenAddr(tt.in); got != tt.want {
			t.Errorf("ListenAddr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestServeAndAgree: shard 0 serves the coordinator and arrives through
// it, the other shards ask it over HTTP, and all get one instant; a
// shard missing when shard 0 gives up fails every shard waiting.
func TestServeAndAgree(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		arrive  []int // the shards that arrive, of 3
		wantErr string
	}{
		{"all arrive", []int{0, 1, 2}, ""},
		{"shard 2 missing", []int{0, 1}, "shards [2] did not arrive"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			c := NewCoordinator("r1", 3, DefaultLead, clock.System{})
			stop := Serve(ln, c)
			defer stop()
			ctx, cancel := context.WithCancel(context.Background())
			type got struct {
				shard int
				err   error
				at    string
			}
			res := make(chan got, len(tt.arrive))
			for _, i := range tt.arrive {
				coord := c
				if i != 0 {
					coord = nil
				}
				go func() {
					at, err := Agree(ctx, coord, "http://"+ln.Addr().String(), Ready{RunID: "r1", Shard: i, Count: 3}, clock.System{})
					res <- got{i, err, at.UTC().Format(time.RFC3339Nano)}
				}()
			}
			if tt.wantErr != "" {
				waitMissing(t, c, 1) // until 0 and 1 have arrived
				cancel()
			}
			var first string
			for range tt.arrive {
				g := <-res
				switch {
				case tt.wantErr == "" && g.err != nil:
					t.Errorf("shard %d: %v", g.shard, g.err)
				case tt.wantErr == "" && first != "" && g.at != first:
					t.Errorf("shard %d starts at %s, another at %s", g.shard, g.at, first)
				case tt.wantErr != "" && (g.err == nil || !strings.Contains(g.err.Error(), tt.wantErr) && !errors.Is(g.err, context.Canceled)):
					t.Errorf("shard %d: %v, want %q", g.shard, g.err, tt.wantErr)
				}
				first = g.at
			}
			cancel()
		})
	}
}

// waitMissing waits until n shards are missing: the shards' goroutines
// arrive over real connections, so the wait is on them, not on a clock.
func waitMissing(t *testing.T, c *Coordinator, n int) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	limit := time.After(10 * time.Second) // a safety net, not the logic's time
	for len(c.Missing()) != n {
		select {
		case <-tick.C:
		case <-limit:
			t.Fatalf("missing %v, want %d missing", c.Missing(), n)
		}
	}
}
