package main

import (
	"bufio"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/nginxtest"
)

// A JTL of a run against nginx counts what JMeter counts: bytes is the
// answer's header and body bytes as nginx sent them, sentBytes the whole
// request, headers included.
func TestJTLBytesAgainstNginx(t *testing.T) {
	t.Parallel()
	base := nginxtest.Start(t)
	want := nginxAnswerSize(t, strings.TrimPrefix(base, "http://"))
	jtl := filepath.Join(t.TempDir(), "run.jtl")
	o := vesload(t, 30*time.Second, "-url", base+"/eventListener/v7", "-rps", "20", "-duration", "1s", "--jtl", jtl, "-q")
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	rows := readJTL(t, jtl)
	if len(rows) != 21 {
		t.Fatalf("%d rows, want a header and 20 requests", len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for i, r := range rows[1:] {
		if r[col["responseCode"]] != "202" {
			t.Fatalf("row %d: %v", i+1, r)
		}
		if got := r[col["bytes"]]; got != strconv.Itoa(want) {
			t.Errorf("row %d: bytes %s, want %d (nginx's headers and body)", i+1, got, want)
		}
		sent, _ := strconv.Atoi(r[col["sentBytes"]])
		if sent <= len("POST /eventListener/v7 HTTP/1.1\r\n\r\n")+200 {
			t.Errorf("row %d: sentBytes %d, want the request line, headers and body", i+1, sent)
		}
	}
}

// nginxAnswerSize sends one VES POST to nginx at addr and counts the bytes
// of its answer: the header block and Content-Length bytes of body.
func nginxAnswerSize(t *testing.T, addr string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	body := `{"event":{}}`
	req := "POST /eventListener/v7 HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	n, length := 0, 0
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("read nginx's answer: %v", err)
		}
		n += len(line)
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
		if line == "\r\n" {
			break
		}
	}
	if _, err := io.CopyN(io.Discard, br, int64(length)); err != nil {
		t.Fatal(err)
	}
	if length == 0 {
		t.Fatalf("nginx answered without a body (%d header bytes)", n)
	}
	return n + length
}
