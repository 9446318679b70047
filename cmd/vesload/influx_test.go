package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/influxtest"
)

// TestInfluxRealServer writes a run to a real InfluxDB 1.x the way
// JMeter's listener does and reads it back with InfluxQL: the run's
// requests, the listener's fields and the start and end annotations.
func TestInfluxRealServer(t *testing.T) {
	t.Parallel()
	db := influxtest.Start(t, "jmeter")
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-rps", "100", "-duration", "3s", "-o", out, "-q",
		"--influx-url", db.URL+"/write?db=jmeter", "--influx-application", "ves")
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Influx == nil || res.Influx.Failed != 0 || res.Influx.Dropped != 0 || res.Influx.Batches < 4 {
		t.Fatalf("influx writes %+v, want every batch written", res.Influx)
	}

	one := func(q string) []any {
		t.Helper()
		r, err := db.Query("jmeter", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(r) != 1 || len(r[0].Series) != 1 || len(r[0].Series[0].Values) != 1 {
			t.Fatalf("%s: %+v, want one row", q, r)
		}
		return r[0].Series[0].Values[0]
	}
	// Every finished request is in the per-second "all" rows, once.
	finished := res.Requests.OK + res.Requests.Errors
	row := one(`SELECT sum("count"), sum("countError"), max("pct99.0"), max("max") FROM "jmeter" WHERE "application"='ves' AND "transaction"='all' AND "statut"='all'`)
	if n, _ := row[1].(float64); int64(n) != finished || finished != 300 {
		t.Errorf("InfluxDB counts %v requests, the result %d (want 300)", row[1], finished)
	}
	if e, _ := row[2].(float64); int64(e) != res.Requests.Errors {
		t.Errorf("InfluxDB counts %v errors, the result %d", row[2], res.Requests.Errors)
	}
	if p99, _ := row[3].(float64); p99 <= 0 || p99 > res.Latency.Max+1 {
		t.Errorf("pct99.0 %v ms outside (0, max %v]", row[3], res.Latency.Max)
	}
	// The per-label rows carry the same requests, split ok/ko.
	row = one(`SELECT sum("count") FROM "jmeter" WHERE "application"='ves' AND "transaction"!='all' AND "transaction"!='internal' AND "statut"='ok'`)
	if n, _ := row[1].(float64); int64(n) != res.Requests.OK {
		t.Errorf("ok rows count %v, the result %d", row[1], res.Requests.OK)
	}
	// Active threads (requests in flight) are written every second.
	row = one(`SELECT count("meanAT"), max("endedT") FROM "jmeter" WHERE "transaction"='internal'`)
	if n, _ := row[1].(float64); n < 3 {
		t.Errorf("%v internal rows, want one a second", row[1])
	}
	if n, _ := row[2].(float64); int64(n) != finished {
		t.Errorf("endedT reaches %v, want %d", row[2], finished)
	}
	// The fields are the listener's.
	keys, err := db.Query("jmeter", `SHOW FIELD KEYS FROM "jmeter"`)
	if err != nil || len(keys) != 1 || len(keys[0].Series) != 1 {
		t.Fatalf("field keys: %v %+v", err, keys)
	}
	var fields []string
	for _, v := range keys[0].Series[0].Values {
		fields = append(fields, v[0].(string))
		if v[1] != "float" {
			t.Errorf("field %v is %v: JMeter writes floats", v[0], v[1])
		}
	}
	for _, f := range []string{"count", "countError", "avg", "min", "max", "hit", "sb", "rb", "pct90.0", "pct95.0", "pct99.0",
		"minAT", "maxAT", "meanAT", "startedT", "endedT"} {
		if !slices.Contains(fields, f) {
			t.Errorf("field %q missing from %q", f, fields)
		}
	}
	// The start and end annotations.
	r, err := db.Query("jmeter", `SELECT "text" FROM "events" WHERE "application"='ves'`)
	if err != nil || len(r) != 1 || len(r[0].Series) != 1 {
		t.Fatalf("events: %v %+v", err, r)
	}
	var texts []string
	for _, v := range r[0].Series[0].Values {
		texts = append(texts, v[1].(string))
	}
	if strings.Join(texts, "|") != "vesload started|vesload ended" {
		t.Errorf("annotations %q, want start and end", texts)
	}
}

// TestInfluxDownNeverFailsTheRun: with nothing listening, the run
// completes, counts the failed writes and, its InfluxDB record being
// incomplete, exits 1 once the result is written.
func TestInfluxDownNeverFailsTheRun(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-rps", "20", "-duration", "2s", "-o", out, "-q",
		"--influx-url", "http://127.0.0.1:1/write?db=jmeter")
	if o.code != 1 {
		t.Fatalf("exit %d, want 1: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	if res.Influx == nil || res.Influx.Failed == 0 || res.Influx.Batches != 0 || !strings.Contains(res.Influx.LastError, "refused") {
		t.Fatalf("influx %+v, want failed writes counted", res.Influx)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "InfluxDB: ") }) {
		t.Errorf("no warning about the lost writes: %q", res.Warnings)
	}
	if len(res.Outputs) != 1 || res.Outputs[0].Name != "--influx-url" || res.Outputs[0].Batches == 0 {
		t.Errorf("outputs lost %+v, want --influx-url with its batches", res.Outputs)
	}
}

// TestInfluxQueryPasswordHidden: a password given as InfluxDB's p=
// parameter is in neither the start line, the summary nor the result.
func TestInfluxQueryPasswordHidden(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-rps", "20", "-duration", "1s", "-o", out,
		"--influx-url", "http://127.0.0.1:1/write?db=jmeter&u=inf&p=S3CRET-p&token=S3CRET-t")
	if o.code != 1 {
		t.Fatalf("exit %d, want 1 (InfluxDB down): %s", o.code, o.stderr)
	}
	if !strings.Contains(o.stdout+o.stderr, "InfluxDB at http://127.0.0.1:1/write?db=jmeter&u=inf&p=xxxxx&token=xxxxx") {
		t.Errorf("no start line naming the hidden URL:\n%s\n%s", o.stdout, o.stderr)
	}
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"stdout": o.stdout, "stderr": o.stderr, "the result": string(body)} {
		if strings.Contains(text, "S3CRET") {
			t.Errorf("%s shows the password:\n%s", name, text)
		}
	}
}
