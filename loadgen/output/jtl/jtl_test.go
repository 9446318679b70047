package jtl

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
)

func TestJTLWriter(t *testing.T) {
	// Not parallel: testing.AllocsPerRun refuses to run beside other tests.
	var buf bytes.Buffer
	j, err := NewWriter(&buf, "http://127.0.0.1:8080/eventListener/v7")
	if err != nil {
		t.Fatal(err)
	}
	start := time.UnixMilli(1700000000123)
	rows := []Sample{
		{Start: start, Elapsed: 12 * time.Millisecond, Service: 3 * time.Millisecond, Label: "fault", Code: 202, Outcome: "ok", BytesRecv: 8, BytesSent: 1024, InFlight: 3, Connect: time.Millisecond, FirstByte: 2 * time.Millisecond},
		{Start: start, Elapsed: 5 * time.Millisecond, Label: "fault", Code: 503, Outcome: "http_503"},
		{Start: start, Label: "fault", Outcome: "pool_exhausted"},
	}
	for _, r := range rows {
		if err := j.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("JTL is not CSV: %v", err)
	}
	if len(recs) != 4 || strings.Join(recs[0], ",")+"\n" != Header {
		t.Fatalf("got %d rows, header %v", len(recs), recs[0])
	}
	want := [][]string{
		{"1700000000123", "12", "fault", "202", "Accepted", "vesload 1-1", "text", "true", "", "8", "1024", "3", "3", "http://127.0.0.1:8080/eventListener/v7", "2", "0", "1"},
		{"1700000000123", "5", "fault", "503", "Service Unavailable", "vesload 1-1", "text", "false", "http_503", "0", "0", "0", "0", "http://127.0.0.1:8080/eventListener/v7", "0", "0", "0"},
		{"1700000000123", "0", "fault", "pool_exhausted", "pool_exhausted", "vesload 1-1", "text", "false", "pool_exhausted", "0", "0", "0", "0", "http://127.0.0.1:8080/eventListener/v7", "0", "0", "0"},
	}
	for i, w := range want {
		if strings.Join(recs[i+1], "|") != strings.Join(w, "|") {
			t.Errorf("row %d:\n got %v\nwant %v", i+1, recs[i+1], w)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = j.Write(rows[0]) }); n != 0 {
		t.Errorf("a JTL row costs %v allocations, want 0", n)
	}
}
