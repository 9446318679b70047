package rest

import (
	"bufio"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

// Explain names the causes a user mends from the command line, and
// nothing for a failure one request cannot explain.
func TestExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, class, id string
		want           string // "" for no cause
		user           string
		header         string
	}{
		{"http://h:8080", "http_405", "", `the listener path is missing? the target answered 405 to "/"`, "", ""},
		{"http://h:8080/", "http_404", "", "-url http://h:8080/eventListener/v7", "", ""},
		{"http://h:8080/eventListener/v9", "http_404", "", `no listener on "/eventListener/v9" (another version? /eventListener/v5, /eventListener/v7)`, "", ""},
		{"http://h:8080/eventListener/v5", "http_404", "", `no listener on "/eventListener/v5" (another version? /eventListener/v7)`, "", ""},
		{"http://h:8080/eventListener/v7", "http_405", "", `no listener on "/eventListener/v7" (another version? /eventListener/v5)`, "", ""},
		{"http://h:8080/eventListener/v7", "http_401", "POL2000", "the collector refused the credentials", "sample1", ""},
		{"http://h:8080/eventListener/v7", "http_403", "", "the collector refused the credentials", "", "X-Api-Key"},
		{"http://h:8080/eventListener/v7", "http_401", "POL2000", "the collector asks for credentials and none were sent: give --user and --password-file", "", ""},
		{"http://h:8080/eventListener/v7", "http_403", "", "the collector asks for credentials and none were sent", "", "X-Tenant"},
		{"http://h:8443/eventListener/v7", "http_400", "", "if h:8443 speaks TLS, use https://", "", ""},
		{"http://h:8443/eventListener/v7", "http_400", "SVC0002", "", "", ""},
		{"https://h:8443/eventListener/v7", "http_400", "", "", "", ""},
		{"http://h:8443/eventListener/v7", "conn_reset", "", "h:8443 may speak TLS: use https://", "", ""},
		{"http://h:8443/eventListener/v7", "bad_response", "", "may speak TLS", "", ""},
		{"https://h:8443/eventListener/v7", "conn_reset", "", "", "", ""},
		{"https://h:8443/eventListener/v7", "tls", "", "TLS handshake with h:8443 failed", "", ""},
		{"http://h:8080/eventListener/v7", "http_503", "", "", "", ""},
		{"http://h:8080/eventListener/v7", "timeout", "", "", "", ""},
	}
	for _, tt := range tests {
		o := Options{URL: tt.url, Pool: 1, Timeout: 1, Kinds: []Kind{{URL: tt.url}}, User: tt.user}
		if tt.user != "" {
			o.Password = "pw"
		}
		if tt.header != "" {
			o.Kinds[0].Headers = []transport.Header{{Name: tt.header, Value: "v"}}
		}
		tr, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Explain(tt.class, tt.id)
		tr.Close()
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s %s %s: Explain = %q, want %q", tt.url, tt.class, tt.id, got, tt.want)
		}
	}
}

// WireHeaders are the header lines a server reads, in their order: a
// header the plan gives twice (Content-Type, as imported JMeter plans
// do) is on the wire once.
func TestWireHeadersAreTheWire(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		var lines []string
		for {
			l, err := r.ReadString('\n')
			if err != nil || l == "\r\n" {
				break
			}
			lines = append(lines, strings.TrimRight(l, "\r\n"))
		}
		_, _ = io.WriteString(c, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
		got <- lines
	}()
	url := "http://" + ln.Addr().String() + "/eventListener/v7"
	tr, err := New(Options{URL: url, Pool: 1, Timeout: 5 * time.Second, UserAgent: "vesload/test", User: "u", Password: "p",
		Headers: []transport.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "X-Plan", Value: "a"}},
		Kinds:   []Kind{{URL: url, Headers: []transport.Header{{Name: "content-type", Value: "application/json"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	body := []byte(`{"event":{}}`)
	want, err := tr.WireHeaders(0, body)
	if err != nil {
		t.Fatal(err)
	}
	var o transport.Outcome
	tr.Probe(&transport.Request{Body: body}, &o)
	wire := <-got
	if o.Class != transport.OK || len(wire) < 2 {
		t.Fatalf("outcome %v, wire %q", o.Class, wire)
	}
	var shown []string
	for _, h := range want {
		shown = append(shown, h.Name+": "+h.Value)
	}
	if !slices.Equal(shown, wire[1:]) {
		t.Errorf("WireHeaders\n%q\nthe wire\n%q", shown, wire[1:])
	}
	n := 0
	for _, l := range wire {
		if strings.HasPrefix(strings.ToLower(l), "content-type:") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("Content-Type %d times on the wire, want once: %q", n, wire)
	}
	if _, err := tr.WireHeaders(1, body); err == nil {
		t.Error("WireHeaders of a kind the mix lacks: no error")
	}
}
