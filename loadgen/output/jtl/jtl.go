package jtl

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Header is JMeter's CSV result (JTL) column order, which JMeter's own
// dashboard generator and the tools around it expect.
const Header = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n"

// Sample is one request as a JTL row. Its columns follow JMeter's own
// definitions (its user manual's glossary): bytes and sentBytes count the
// answer and the request on the wire, headers included; Connect is the
// time to open the connection, TLS handshake included, on the request that
// opened it and 0 on a reused one; Latency runs from just before sending
// to the first byte of the answer, Connect included. elapsed alone differs:
// it runs from the request's due time (the open model's latency), not from
// its sending.
type Sample struct {
	Start     time.Time     // when the request was due
	Elapsed   time.Duration // latency from the due time
	Service   time.Duration // from the hand-over to a connection to the answer's last byte
	Label     string
	Code      int    // HTTP status; 0 when there was no response
	Outcome   string // "ok" or the error class
	BytesRecv int64  // the answer's bytes, headers included
	BytesSent int64  // the request's bytes, headers included
	InFlight  int64
	Connect   time.Duration // opening the connection, when this request opened it
	FirstByte time.Duration // from the hand-over to the answer's first byte; 0 without one
}

// Writer streams JTL rows. It buffers and formats with strconv, so a row
// costs no allocation; call Flush at the end.
type Writer struct {
	w      *bufio.Writer
	url    string
	thread string
	buf    []byte
}

// NewWriter writes the header row. url is the request URL written in
// every row (pass one without credentials).
func NewWriter(w io.Writer, url string) (*Writer, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.WriteString(Header); err != nil {
		return nil, err
	}
	return &Writer{w: bw, url: csvField(url), thread: "vesload 1-1", buf: make([]byte, 0, 512)}, nil
}

// Write appends one row.
func (j *Writer) Write(s Sample) error {
	b := j.buf[:0]
	b = strconv.AppendInt(b, s.Start.UnixMilli(), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.Elapsed.Milliseconds(), 10)
	b = append(b, ',')
	b = append(b, s.Label...)
	b = append(b, ',')
	ok := s.Outcome == "ok"
	if s.Code > 0 {
		b = strconv.AppendInt(b, int64(s.Code), 10)
	} else {
		b = append(b, s.Outcome...)
	}
	b = append(b, ',')
	// responseMessage is the status's reason phrase, as JMeter writes it
	// ("Accepted" for 202); without a status, the outcome's class.
	switch reason := http.StatusText(s.Code); {
	case s.Code > 0 && reason != "":
		b = append(b, reason...)
	case ok:
		b = append(b, "OK"...)
	default:
		b = append(b, s.Outcome...)
	}
	b = append(b, ',')
	b = append(b, j.thread...)
	b = append(b, ",text,"...)
	b = strconv.AppendBool(b, ok)
	b = append(b, ',')
	if !ok {
		b = append(b, s.Outcome...)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, s.BytesRecv, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.BytesSent, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.InFlight, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.InFlight, 10)
	b = append(b, ',')
	b = append(b, j.url...)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.FirstByte.Milliseconds(), 10)
	b = append(b, ",0,"...)
	b = strconv.AppendInt(b, s.Connect.Milliseconds(), 10)
	b = append(b, '\n')
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

// Flush writes out what is buffered.
func (j *Writer) Flush() error { return j.w.Flush() }

// csvField quotes s when it holds a comma, quote or line break.
func csvField(s string) string {
	needs := false
	for _, c := range s {
		if c == ',' || c == '"' || c == '\n' || c == '\r' {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	q := []byte{'"'}
	for _, c := range []byte(s) {
		if c == '"' {
			q = append(q, '"')
		}
		q = append(q, c)
	}
	return string(append(q, '"'))
}
