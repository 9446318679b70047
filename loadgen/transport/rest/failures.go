package rest

import (
	"bytes"
	"fmt"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/transport"
)

// maxLoggedBody bounds each body a failure log shows.
const maxLoggedBody = 2 << 10

// failureLog shows the first failing exchange of each error class (each
// status for http), so that a user sees what the target refused and how.
// A successful request never reaches it; a failing one pays one atomic
// swap unless it is the first of its class.
type failureLog struct {
	log   func(string)
	first transport.FirstFailures
}

// observe logs the exchange when it is the first failure of its class.
// req and resp are as the exchange left them; err is the client's error.
func (f *failureLog) observe(o *transport.Outcome, req *fasthttp.Request, resp *fasthttp.Response, err error) {
	if !f.first.First(o.Class, o.Code) {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "first %s exchange:\n", o.Class.Name(int(o.Code)))
	fmt.Fprintf(&b, "> %s %s %s\n", req.Header.Method(), req.URI().RequestURI(), req.Header.Protocol())
	for k, v := range req.Header.All() {
		fmt.Fprintf(&b, "> %s: %s\n", k, redact.Header(string(k), string(v)))
	}
	writeBody(&b, "> ", req.Body())
	if err != nil {
		fmt.Fprintf(&b, "< no response: %v", err)
	} else {
		fmt.Fprintf(&b, "< %s %d %s\n", resp.Header.Protocol(), resp.StatusCode(), resp.Header.StatusMessage())
		for k, v := range resp.Header.All() {
			fmt.Fprintf(&b, "< %s: %s\n", k, redact.Header(string(k), string(v)))
		}
		writeBody(&b, "< ", resp.Body())
	}
	f.log(string(bytes.TrimRight(b.Bytes(), "\n")))
}

// writeBody writes body after a blank line, cut to maxLoggedBody.
func writeBody(b *bytes.Buffer, prefix string, body []byte) {
	fmt.Fprintf(b, "%s\n", prefix)
	cut := ""
	if len(body) > maxLoggedBody {
		cut = fmt.Sprintf(" … (%d bytes in all)", len(body))
		body = body[:maxLoggedBody]
	}
	fmt.Fprintf(b, "%s%s%s\n", prefix, body, cut)
}
