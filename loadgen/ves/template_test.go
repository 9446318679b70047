package ves

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var testDue = time.Date(2024, 3, 4, 5, 6, 7, 890_123_456, time.UTC)

func render(t *testing.T, src string, opts TemplateOptions, seq uint64) string {
	t.Helper()
	tpl, err := CompileTemplate([]byte(src), opts)
	if err != nil {
		t.Fatalf("CompileTemplate(%q): %v", src, err)
	}
	return string(tpl.AppendBody(nil, seq, testDue))
}

func TestTemplatePlaceholders(t *testing.T) {
	t.Parallel()
	millis := strconv.FormatInt(testDue.UnixMilli(), 10)
	seconds := strconv.FormatInt(testDue.Unix(), 10)
	tests := []struct {
		src, want string
	}{
		{"{{.Seq}}", "41"},
		{"{{ .Seq }}", "41"},
		{"{{.Counter}}", "42"},
		{"{{.EventID}}", "run1-41"},
		{"{{.RunID}}", "run1"},
		{"{{.EpochMicros}}", strconv.FormatInt(testDue.UnixMicro(), 10)},
		{"{{.EpochMillis}}", millis},
		{"{{.EpochSeconds}}", seconds},
		{"{{.EventTime}}", "2024-03-04T05:06:07.890123Z"},
		{"{{.Random 7 7}}", "7"},
		{`{{"{{"}} and {{"${"}}`, "{{ and ${"},
		{"{{`}}`}}", "}}"},
		{"${__time()}", millis},
		{"${__time(,)}", millis},
		{"${__time}", millis},
		{"${__time(,stamp)}", millis},
		{"${__time(/1000,)}", seconds},
		{"${__counter(,)}", "42"},
		{"${__counter(TRUE,)}", "42"},
		{"${__counter(FALSE,name)}", "42"},
		{"${__counter}", "42"},
		{"${__threadNum}", "1"},
		{"${__threadNum()}", "1"},
		{"${__Random(-3,-3)}", "-3"},
		{"${__Random(5,5,var)}", "5"},
		{"${HOST}:${PORT}", "collector:8443"},
		{"plain text, no placeholders", "plain text, no placeholders"},
		{"", ""},
		{"$ {{.Seq}} { $", "$ 41 { $"},
	}
	opts := TemplateOptions{RunID: "run1", Vars: map[string]string{"HOST": "collector", "PORT": "8443"}, AllowInvalidJSON: true}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			if got := render(t, tt.src, opts, 41); got != tt.want {
				t.Errorf("render(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestTemplateUUID(t *testing.T) {
	t.Parallel()
	const n = 20000
	seen := make(map[string]bool, 4*n)
	for _, runID := range []string{"a", "b"} {
		tpl, err := CompileTemplate([]byte(`["{{.UUID}}","${__UUID()}"]`), TemplateOptions{RunID: runID})
		if err != nil {
			t.Fatal(err)
		}
		for seq := range uint64(n) {
			var pair [2]string
			if err := json.Unmarshal(tpl.AppendBody(nil, seq, testDue), &pair); err != nil {
				t.Fatal(err)
			}
			for _, u := range pair {
				if !uuidV4.MatchString(u) {
					t.Fatalf("seq %d: %q is not a version 4 UUID", seq, u)
				}
				if seen[u] {
					t.Fatalf("run %s seq %d: UUID %s repeated", runID, seq, u)
				}
				seen[u] = true
			}
		}
	}
	// Same run ID and seq reproduce the same UUID.
	a := render(t, "{{.UUID}}", TemplateOptions{RunID: "r", AllowInvalidJSON: true}, 9)
	b := render(t, "${__UUID}", TemplateOptions{RunID: "r", AllowInvalidJSON: true}, 9)
	if a != b {
		t.Errorf("same run, seq and placeholder position gave %s and %s", a, b)
	}
}

func TestTemplateRandom(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src    string
		lo, hi int64
	}{
		{"{{.Random 1 3}}", 1, 3},
		{"${__Random(-10,10)}", -10, 10},
		{"${__Random( 0 , 1 )}", 0, 1},
		{"{{.Random -9223372036854775808 9223372036854775807}}", -1 << 63, 1<<63 - 1},
		{"{{.Random 9223372036854775806 9223372036854775807}}", 1<<63 - 2, 1<<63 - 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			tpl, err := CompileTemplate([]byte(tt.src), TemplateOptions{RunID: "r"})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int64]int{}
			for seq := range uint64(3000) {
				v, err := strconv.ParseInt(string(tpl.AppendBody(nil, seq, testDue)), 10, 64)
				if err != nil || v < tt.lo || v > tt.hi {
					t.Fatalf("seq %d: %d (%v) outside [%d, %d]", seq, v, err, tt.lo, tt.hi)
				}
				seen[v]++
			}
			if span := tt.hi - tt.lo; span >= 0 && span < 100 {
				if len(seen) != int(span)+1 {
					t.Errorf("drew %d distinct values in 3000 renders, want all %d", len(seen), span+1)
				}
			} else if len(seen) < 2900 {
				t.Errorf("only %d distinct values in 3000 renders of a wide range", len(seen))
			}
		})
	}
}

func TestTemplateRandomPlaceholdersDiffer(t *testing.T) {
	t.Parallel()
	tpl, err := CompileTemplate([]byte(`[{{.Random 0 1000000}},{{.Random 0 1000000}}]`), TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for seq := range uint64(100) {
		var pair [2]int
		if err := json.Unmarshal(tpl.AppendBody(nil, seq, testDue), &pair); err != nil {
			t.Fatal(err)
		}
		if pair[0] == pair[1] {
			same++
		}
	}
	if same > 1 {
		t.Errorf("two Random placeholders agreed in %d of 100 bodies", same)
	}
}

func TestCompileTemplateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		line, col int
		want      string
	}{
		{"unknown function", `{"a": ${__foo()}}`, 1, 7, "unknown JMeter function __foo"},
		{"unknown variable", "{\n  \"host\": \"${HOST}\"}", 2, 12, "undefined variable ${HOST}"},
		{"unknown placeholder", `{"a": {{.Nope}}}`, 1, 7, "unknown placeholder {{.Nope}}"},
		{"no dot", `{"a": {{Seq}}}`, 1, 7, "leading dot"},
		{"empty native", `{"a": {{ }}}`, 1, 7, "empty placeholder"},
		{"unterminated native", `{"a": {{.Seq}`, 1, 7, "unterminated {{"},
		{"unterminated reference", `{"a": ${__time(}`, 1, 7, "missing )"},
		{"unterminated reference at end", `{"a": 1} ${x`, 1, 10, "unterminated ${"},
		{"empty reference", `{"a": "${}"}`, 1, 8, "empty reference"},
		{"nested reference", `{"a": ${__Random(1,${MAX})}}`, 1, 7, "nested references"},
		{"random arity", `{"a": {{.Random 1}}}`, 1, 7, "takes two integers"},
		{"random not int", `{"a": ${__Random(1,x)}}`, 1, 7, `MAX "x" is not an integer`},
		{"random reversed", `{"a": {{.Random 5 1}}}`, 1, 7, "MIN 5 is greater than MAX 1"},
		{"seq with argument", `{"a": {{.Seq 1}}}`, 1, 7, "takes no arguments"},
		{"time format", `{"a": "${__time(yyyy-MM-dd,)}"}`, 1, 8, "unsupported format"},
		{"counter flag", `{"a": ${__counter(MAYBE,)}}`, 1, 7, "TRUE, FALSE or empty"},
		{"uuid argument", `{"a": "${__UUID(x)}"}`, 1, 8, "takes no arguments"},
		{"bad string literal", `{"a": {{"\q"}}}`, 1, 7, "bad string literal"},
		{"literal without close", `{"a": {{"x" .Seq}}}`, 1, 7, "expected }}"},
		{"columns count characters", "{\"é€\": ${__nope}}", 1, 8, "unknown JMeter function"},
		{"invalid JSON at a literal", "{\n  \"a\": 1,\n  \"b\": }", 3, 8, "not valid JSON"},
		{"invalid JSON from a placeholder", `{"a": {{.EventID}}}`, 1, 7, "not valid JSON"},
		{"invalid JSON at the end", "{\"a\": [1,\n", 2, 1, "unexpected end of JSON input"},
		{"empty template", "", 1, 1, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := CompileTemplate([]byte(tt.src), TemplateOptions{RunID: "r"})
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("CompileTemplate(%q) = %v, want a *TemplateError", tt.src, err)
			}
			if te.Line != tt.line || te.Column != tt.col || !strings.Contains(te.Msg, tt.want) {
				t.Errorf("got %d:%d %q, want %d:%d and %q", te.Line, te.Column, te.Msg, tt.line, tt.col, tt.want)
			}
			if prefix := fmt.Sprintf("%d:%d: ", tt.line, tt.col); !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("Error() = %q, want prefix %q", err.Error(), prefix)
			}
		})
	}
}

func TestCompileTemplateBadRunID(t *testing.T) {
	t.Parallel()
	_, err := CompileTemplate([]byte(`{}`), TemplateOptions{RunID: "a b"})
	if err == nil || !strings.Contains(err.Error(), "run ID") {
		t.Fatalf("err = %v, want a run ID error", err)
	}
}

func TestTemplateAllowInvalidJSON(t *testing.T) {
	t.Parallel()
	src := `{"event": {"commonEventHeader": {"sequence": {{.Seq}}}` // one brace short
	if _, err := CompileTemplate([]byte(src), TemplateOptions{}); err == nil {
		t.Fatal("invalid JSON compiled without AllowInvalidJSON")
	}
	got := render(t, src, TemplateOptions{AllowInvalidJSON: true}, 3)
	if want := `{"event": {"commonEventHeader": {"sequence": 3}`; got != want {
		t.Errorf("render = %q, want %q", got, want)
	}
}

func TestTemplateIsBatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src          string
		allowInvalid bool
		want         bool
	}{
		{`{"event": {"commonEventHeader": {}}}`, false, false},
		{`{"eventList": [{"commonEventHeader": {}}]}`, false, true},
		{` { "x": {"eventList": []}, "y": "eventList", "eventList" : [] }`, false, true},
		{`{"event": {"eventList": []}, "note": "eventList"}`, false, false},
		{`["eventList"]`, false, false},
		{`{"eventList": [`, true, true},
		{`{"event": {`, true, false},
	}
	for _, tt := range tests {
		tpl, err := CompileTemplate([]byte(tt.src), TemplateOptions{AllowInvalidJSON: tt.allowInvalid})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if tpl.IsBatch() != tt.want {
			t.Errorf("IsBatch(%s) = %v, want %v", tt.src, tpl.IsBatch(), tt.want)
		}
	}
}

func TestTemplateDoesNotAliasSource(t *testing.T) {
	t.Parallel()
	src := []byte(`{"a": "abc", "n": {{.Seq}}}`)
	tpl, err := CompileTemplate(src, TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	copy(src, "XXXXXXXXXXX")
	if got := string(tpl.AppendBody(nil, 1, testDue)); got != `{"a": "abc", "n": 1}` {
		t.Errorf("render after changing the source = %q", got)
	}
}

func TestLoadTemplate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(`{"event": {"x": {{.Seq}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{\n \"x\": ${__nope()}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tpl, err := LoadTemplate(good, TemplateOptions{RunID: "z"})
	if err != nil {
		t.Fatal(err)
	}
	if tpl.RunID() != "z" || string(tpl.AppendBody(nil, 4, testDue)) != `{"event": {"x": 4}}` {
		t.Errorf("loaded template renders %q with run ID %q", tpl.AppendBody(nil, 4, testDue), tpl.RunID())
	}
	_, err = LoadTemplate(bad, TemplateOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), bad+":2:7: unknown JMeter function") {
		t.Errorf("bad template error = %v, want it to start with %s:2:7", err, bad)
	}
	_, err = LoadTemplate(filepath.Join(dir, "missing.json"), TemplateOptions{})
	if err == nil || !strings.Contains(err.Error(), "read template") {
		t.Errorf("missing file error = %v", err)
	}
}

func TestTemplateRenderAllocatesNothing(t *testing.T) {
	src := `{"event":{"commonEventHeader":{"eventId":"{{.EventID}}","sequence":{{.Seq}},"startEpochMicrosec":{{.EpochMicros}},` +
		`"lastEpochMicrosec":${__time()},"sourceId":"${__UUID()}","c":${__counter(,)},"r":${__Random(1,100)},"t":"{{.EventTime}}"}}}`
	tpl, err := CompileTemplate([]byte(src), TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	buf := tpl.AppendBody(nil, 1<<40, testDue)
	seq := uint64(0)
	allocs := testing.AllocsPerRun(500, func() {
		buf = tpl.AppendBody(buf[:0], seq, testDue)
		seq++
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per render, want 0", allocs)
	}
}
