// Package leaktest fails a package's tests when a goroutine outlives them:
// an engine that leaked a worker, a dispatcher or a sampler per run would
// grow without bound over a soak test. It knows which of fasthttp's
// background goroutines are not leaks, so that every package that drives
// fasthttp checks the same way.
package leaktest

import (
	"testing"

	"go.uber.org/goleak"
)

// fasthttpOwn are fasthttp's own background goroutines: a client's
// connsCleaner ends once its connections have been idle for
// MaxIdleConnDuration; the dialer's address cache cleaner and a server's
// Date header ticker are one per process.
var fasthttpOwn = []string{
	"github.com/valyala/fasthttp.(*HostClient).connsCleaner",
	"github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean",
	"github.com/valyala/fasthttp.updateServerDate.func1",
}

// VerifyTestMain runs the package's tests, then fails them when a
// goroutine other than fasthttp's own is still running.
func VerifyTestMain(m *testing.M) {
	opts := make([]goleak.Option, len(fasthttpOwn))
	for i, fn := range fasthttpOwn {
		opts[i] = goleak.IgnoreAnyFunction(fn)
	}
	goleak.VerifyTestMain(m, opts...)
}
