package resultfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func encodeSample(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, sampleResult(t)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteReadRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	want := sampleResult(t)
	if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, want); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the result:\n got %+v\nwant %+v", got, want)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "result.json" {
		t.Errorf("directory holds %v, want only result.json (no temporary file left)", entries)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, path, want string
	}{
		{"stdout", "-", "use Encode for stdout"},
		{"empty", "", "not a file path"},
		{"missing dir", filepath.Join(dir, "nope", "r.json"), filepath.Join(dir, "nope", "r.json")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Write(tc.path, sampleResult(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write(%q) = %v, want an error containing %q", tc.path, err, tc.want)
			}
		})
	}
}

func TestWriteKeepsOldFileOnEncodeError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := sampleResult(t)
	bad.DurationS = nanValue()
	if err := Write(path, bad); err == nil {
		t.Fatal("Write of a NaN duration succeeded, want an encoding error")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "previous" {
		t.Errorf("file now holds %q, want the previous content kept", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the temporary file removed", len(entries))
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestEncodeFillsSchemaWithoutChangingInput(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	r.Schema = ""
	var b bytes.Buffer
	if err := Encode(&b, r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != "" {
		t.Errorf("Encode changed the caller's result")
	}
	if _, err := Decode(&b, "x.json"); err != nil {
		t.Errorf("an encoded result without schema does not read back: %v", err)
	}
	if err := Encode(&b, nil); err == nil {
		t.Errorf("Encode(nil) succeeded")
	}
}

func TestEncodeKeepsURLsReadable(t *testing.T) {
	t.Parallel()
	r := emptyResult()
	r.Config.URL = "http://h/x?a=1&b=2"
	var b bytes.Buffer
	if err := Encode(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "a=1&b=2") {
		t.Errorf("URL escaped in %s", b.String())
	}
}

// mutate decodes the sample as a generic object, applies f and encodes it
// again, to build invalid documents from a valid one.
func mutate(t *testing.T, f func(m map[string]any)) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(encodeSample(t), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  string // the whole error message
	}{
		{"empty", "  \n", "r.json: empty file (want a vesload result JSON document)"},
		{"syntax", "{\n  \"schema\": \"vesload/result/v1\",\n  \"tool\": }\n", "r.json:3:11: invalid JSON: invalid character '}' looking for beginning of value"},
		{"syntax after multibyte", "{\"é\": 1,,}", "r.json:1:9: invalid JSON: invalid character ',' looking for beginning of object key string"},
		{"truncated", `{"schema": "vesload/result/v1"`, "r.json:1:31: invalid JSON: unexpected end of JSON input"},
		{"last byte", `{"a":1,}`, "r.json:1:8: invalid JSON: invalid character '}' looking for beginning of object key string"},
		{"not an object", `["a"]`, "r.json:1:1: want a JSON object, found array"},
		{"no schema", `{"tool": {}}`, `r.json: not a vesload result (no "schema" field)`},
		{"schema not a string", `{"schema": 1}`, `r.json: "schema" is 1, want the string "vesload/result/v1"`},
		{"other schema", `{"schema": "vesload/result/v2"}`, `r.json: schema "vesload/result/v2" is not supported (want "vesload/result/v1")`},
		{"missing fields", `{"schema": "vesload/result/v1", "tool": {}, "config": {}}`,
			`r.json: not a complete vesload result: missing "started", "ended", "duration_s", "interrupted", "requests", "errors", "rps", "latency_ms", "service_ms", "bytes", "generator", "histograms", "timeline"`},
		{"wrong type", mutate(t, func(m map[string]any) { m["config"].(map[string]any)["rps"] = "fast" }),
			`want a number, found string`},
		{"negative count", mutate(t, func(m map[string]any) { m["requests"].(map[string]any)["sent"] = -1 }),
			"r.json: requests.sent is negative (-1)"},
		{"negative class", mutate(t, func(m map[string]any) { m["errors"].(map[string]any)["timeout"] = -2 }),
			"r.json: errors.timeout is negative (-2)"},
		{"negative duration", mutate(t, func(m map[string]any) { m["duration_s"] = -1 }),
			"r.json: duration_s is negative (-1)"},
		{"bad histogram", mutate(t, func(m map[string]any) { m["histograms"].(map[string]any)["service"] = "bm90IGEgaGlzdG9ncmFt" }),
			"r.json: histograms.service: decode histogram: "},
		{"bad time", mutate(t, func(m map[string]any) { m["started"] = "yesterday" }),
			`r.json: started: want an RFC 3339 time such as "2025-03-04T10:00:00Z", found "yesterday"`},
		{"trailing data", string(encodeSample(t)) + "{}", "invalid character '{' after top-level value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Decode(strings.NewReader(tc.input), "r.json")
			if err == nil {
				t.Fatalf("Decode succeeded with %+v, want an error", r)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans several lines: %q", msg)
			}
			if !strings.HasPrefix(msg, "r.json") {
				t.Errorf("error %q does not start with the file name", msg)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error\n  %q\nwant it to contain\n  %q", msg, tc.want)
			}
		})
	}
}

func TestDecodeTypeErrorPosition(t *testing.T) {
	t.Parallel()
	input := "{\n \"schema\": \"vesload/result/v1\",\n \"tool\": {}, \"config\": {\"rps\": \"x\"}}"
	_, err := Decode(strings.NewReader(input), "r.json")
	want := `r.json:3:34: config.rps: want a number, found string`
	if err == nil || err.Error() != want {
		t.Errorf("Decode error = %v, want %s", err, want)
	}
}

func TestDecodeIgnoresUnknownFields(t *testing.T) {
	t.Parallel()
	input := mutate(t, func(m map[string]any) { m["added_in_a_later_version"] = map[string]any{"x": 1} })
	r, err := Decode(strings.NewReader(input), "r.json")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if r.Requests.Sent != 10000 {
		t.Errorf("requests.sent = %d, want 10000", r.Requests.Sent)
	}
}

func TestReadMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "absent.json")
	_, err := Read(path)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("Read(absent) = %v, want a not-exist error naming the file", err)
	}
}

func TestPosition(t *testing.T) {
	t.Parallel()
	data := []byte("ab\ncdé\nf")
	tests := []struct {
		off       int64
		line, col int
	}{
		{-5, 1, 1}, {0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 2, 3}, {7, 2, 4}, {8, 3, 1}, {100, 3, 2},
	}
	for _, tc := range tests {
		line, col := position(data, tc.off)
		if line != tc.line || col != tc.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", tc.off, line, col, tc.line, tc.col)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encodeSample(f))
	var empty bytes.Buffer
	if err := Encode(&empty, emptyResult()); err != nil {
		f.Fatal(err)
	}
	f.Add(empty.Bytes())
	f.Add([]byte(""))
	f.Add([]byte(`{"schema":"vesload/result/v1"}`))
	f.Add([]byte(`{"schema":"vesload/result/v1","histograms":{"latency":"HISTFAAAABx4nJNpmSzMwMDAzAABMFrEtgBUAgAg"}}`))
	f.Add([]byte("{\n\"a\": [1, 2,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "fuzz.json") || strings.Contains(msg, "\n") {
				t.Fatalf("error is not one line naming the file: %q", msg)
			}
			return
		}
		if r.Schema != result.Schema {
			t.Fatalf("accepted schema %q", r.Schema)
		}
		var b bytes.Buffer
		if err := Encode(&b, r); err != nil {
			t.Fatalf("accepted result does not encode: %v", err)
		}
		again, err := Decode(&b, "again.json")
		if err != nil {
			t.Fatalf("accepted result does not read back: %v\n%s", err, b.Bytes())
		}
		if !reflect.DeepEqual(again.Requests, r.Requests) || !reflect.DeepEqual(again.Histograms, r.Histograms) {
			t.Fatalf("round trip changed the result")
		}
	})
}
