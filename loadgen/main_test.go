package loadgen

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a goroutine outlives them: an
// engine that leaks a worker, a dispatcher or a sampler per run would
// grow without bound over a soak test. fasthttp's own cleaners are not
// leaks: a client's connsCleaner ends once its connections have been idle
// for MaxIdleConnDuration, and the dialer's address cache cleaner and a
// server's Date header ticker (the in-memory server of the benchmark) are
// one per process.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, fasthttpCleaners()...)
}

func fasthttpCleaners() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
	}
}
