package rest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/loadgen/transport/transporttest"
)

func TestClassifyError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{fasthttp.ErrTimeout, "timeout"},
		{fasthttp.ErrDialTimeout, "timeout"},
		{fmt.Errorf("read: %w", os.ErrDeadlineExceeded), "timeout"},
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, "conn_refused"},
		{&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, "conn_reset"},
		{fasthttp.ErrConnectionClosed, "conn_reset"},
		{io.EOF, "conn_reset"},
		{&net.DNSError{Err: "no such host", Name: "collector.invalid"}, "dns"},
		{fasthttp.ErrTLSHandshakeTimeout, "tls"},
		{fasthttp.ErrNoFreeConns, "pool_exhausted"},
		{fasthttp.ErrBodyTooLarge, "response_too_large"},
		{fmt.Errorf("error when reading response headers: %w", errors.New(`invalid response status code "2x2"`)), "bad_response"},
		{fmt.Errorf("error when reading response headers: %w", errors.New("cannot find whitespace in the first line of response")), "bad_response"},
		{fmt.Errorf("error when reading response headers: %w", io.EOF), "conn_reset"},
		{fmt.Errorf("error when reading response headers: %w", fasthttp.ErrTimeout), "timeout"},
		{errors.New("something else"), "other"},
	}
	for _, tt := range tests {
		if got := classifyError(tt.err).Name(0); got != tt.want {
			t.Errorf("classify(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

// TestClassifyNetErrors: the network errors every transport shares are
// classed here as the HV-VES producers class them.
func TestClassifyNetErrors(t *testing.T) {
	t.Parallel()
	for _, c := range transporttest.NetErrors() {
		if got := classifyError(c.Err); got != c.Want {
			t.Errorf("%s: classify(%v) = %s, want %s", c.Name, c.Err, got.Name(0), c.Want.Name(0))
		}
	}
}

func TestMessageID(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, want string }{
		{`{"requestError":{"ServiceException":{"messageId":"SVC2000","text":"x"}}}`, "SVC2000"},
		{`{"requestError":{"PolicyException":{"messageId" : "POL2000"}}}`, "POL2000"},
		{`{"requestError":{"serviceException":{"messageId":"SVC0002"}}}`, "SVC0002"},
		{`Accepted`, ""},
		{`{"messageId": 12}`, ""},
		{`{"messageId":"has space"}`, ""},
		{`{"messageId":"`, ""},
		{`{"messageId":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`, ""},
	}
	for _, tt := range tests {
		if got := string(messageID([]byte(tt.body))); got != tt.want {
			t.Errorf("messageID(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

func FuzzMessageID(f *testing.F) {
	f.Add([]byte(`{"requestError":{"ServiceException":{"messageId":"SVC2000"}}}`))
	f.Add([]byte(`"messageId":"`))
	f.Fuzz(func(t *testing.T, body []byte) {
		id := messageID(body)
		if len(id) > 32 {
			t.Fatalf("id %q longer than 32 bytes", id)
		}
		for _, b := range id {
			if b == '"' || b == ' ' || b < 0x21 || b > 0x7e {
				t.Fatalf("id %q holds byte %q", id, b)
			}
		}
	})
}
