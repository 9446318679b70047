package ves

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func FuzzCompileTemplate(f *testing.F) {
	seeds := []string{
		`{"event":{"commonEventHeader":{"eventId":"{{.EventID}}","sequence":{{.Seq}},"startEpochMicrosec":${__time()}}}}`,
		`{"eventList":[{"a":"${__UUID()}","b":${__counter(TRUE,)},"c":${__Random(1,10,v)}}]}`,
		`{"t":"{{.EventTime}}","r":{{.Random -5 5}},"s":{{.EpochSeconds}},"v":"${HOST}","n":${__threadNum}}`,
		`{{"{{"}} {{` + "`${`" + `}} ${__time(/1000,)}`,
		`{"a": ${__foo()}}`, `{"a": {{.Nope}}}`, `${`, `{{`, `{{"`, "{{`", `${__Random(1,${X})}`,
		`${__Random(9223372036854775807,-9223372036854775808)}`, "{\n\t\"é\": ${MISSING}}", `{"a": }`, "",
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, allowInvalid bool) {
		opts := TemplateOptions{RunID: "fuzz", Vars: map[string]string{"HOST": "collector"}, AllowInvalidJSON: allowInvalid}
		tpl, err := CompileTemplate(src, opts)
		if err != nil {
			var te *TemplateError
			if !errors.As(err, &te) {
				t.Fatalf("error without position: %v", err)
			}
			if te.Line < 1 || te.Column < 1 || te.Line > bytes.Count(src, []byte("\n"))+1 {
				t.Fatalf("position %d:%d outside the source", te.Line, te.Column)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("%d:%d: ", te.Line, te.Column)) {
				t.Fatalf("error %q does not start with its position", err)
			}
			return
		}
		sample := tpl.AppendBody(nil, 0, sampleDue())
		if !allowInvalid && !json.Valid(sample) {
			t.Fatalf("compiled without AllowInvalidJSON but renders invalid JSON: %q", sample)
		}
		prefix := []byte("keep")
		for _, seq := range []uint64{1, 1 << 63, ^uint64(0)} {
			due := time.Unix(int64(seq>>40), int64(seq&0xfffff))
			out := tpl.AppendBody(bytes.Clone(prefix), seq, due)
			if !bytes.HasPrefix(out, prefix) {
				t.Fatalf("AppendBody overwrote dst")
			}
			if again := tpl.AppendBody(nil, seq, due); !bytes.Equal(out[len(prefix):], again) {
				t.Fatalf("seq %d: two renders differ", seq)
			}
		}
	})
}

func FuzzEventRender(f *testing.F) {
	f.Add(uint8(0), uint64(0), int64(0), int64(0), uint8(0), false)
	f.Add(uint8(1), uint64(12345), int64(1_700_000_000), int64(999_999_999), uint8(3), true)
	f.Add(uint8(5), ^uint64(0), int64(-62135596800), int64(1), uint8(2), true)
	f.Add(uint8(3), uint64(1)<<62, int64(1)<<40, int64(-5), uint8(9), false)
	domains := Domains()
	f.Fuzz(func(t *testing.T, domain uint8, seq uint64, sec, nsec int64, batch uint8, padded bool) {
		opts := EventOptions{RunID: "fuzz", Batch: int(batch % 8)}
		if padded {
			opts.Size = 16384
		}
		e, err := NewEvent(domains[int(domain)%len(domains)], opts)
		if err != nil {
			t.Fatal(err)
		}
		due := time.Unix(sec, nsec)
		body := e.AppendBody(nil, seq, due)
		if !json.Valid(body) {
			t.Fatalf("invalid JSON for seq %d due %v: %s", seq, due, body)
		}
		hs := headers(t, body)
		if len(hs) != e.Batch() {
			t.Fatalf("%d events, want %d", len(hs), e.Batch())
		}
		first := seq * uint64(e.Batch())
		for i, h := range hs {
			n := first + uint64(i)
			if h.Sequence.String() != fmt.Sprint(n) || h.EventID != fmt.Sprintf("fuzz-%d", n) {
				t.Fatalf("event %d: sequence %s, eventId %s; want %d", i, h.Sequence, h.EventID, n)
			}
			if h.StartEpochMicrosec.String() != fmt.Sprint(due.UnixMicro()) {
				t.Fatalf("event %d: startEpochMicrosec %s, want %d", i, h.StartEpochMicrosec, due.UnixMicro())
			}
		}
	})
}
