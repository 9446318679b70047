package testserver

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/vesload/vesload/internal/shareddata"
)

// benchEvent is a v7 fault event of about 1 KiB, the size the ONAP
// JMeter plans send.
func benchEvent(id string) []byte {
	extra := `,"reportingEntityId":"7e5a0ad0-1c3b-4f0e-9d51-0000000000e1","sourceId":"7e5a0ad0-1c3b-4f0e-9d51-0000000000a1",` +
		`"nfVendorName":"Ericsson","nfNamingCode":"scfx","nfcNamingCode":"ssc","timeZoneOffset":"UTC-05:30"`
	return []byte(`{"event":{"commonEventHeader":` + header7(id, "fault", extra) +
		`,"faultFields":{"faultFieldsVersion":"4.0","alarmCondition":"PilotNumberPoolExhaustion",` +
		`"eventSourceType":"other","specificProblem":"Calls cannot complete - pilot numbers are unavailable",` +
		`"eventSeverity":"CRITICAL","vfStatus":"Active","alarmAdditionalInformation":{"PilotNumberPoolSize":"1000",` +
		`"note":"` + strings.Repeat("x", 300) + `"}}}}`)
}

// benchBatch is a v7 batch of n such events (about n KiB).
func benchBatch(n int) []byte {
	parts := make([]string, n)
	for i := range parts {
		ev := string(benchEvent(fmt.Sprint("id-", i)))
		parts[i] = strings.TrimSuffix(strings.TrimPrefix(ev, `{"event":`), "}")
	}
	return []byte(`{"eventList":[` + strings.Join(parts, ",") + `]}`)
}

// headerOnly is the lightest encoding/json alternative: decode into a
// struct holding only the header fields the emulator checks. It is the
// baseline the single-pass checker is measured against.
type headerOnly struct {
	Event struct {
		CommonEventHeader struct {
			Domain                  *string          `json:"domain"`
			EventID                 *string          `json:"eventId"`
			EventName               *string          `json:"eventName"`
			Priority                *string          `json:"priority"`
			ReportingEntityName     *string          `json:"reportingEntityName"`
			SourceName              *string          `json:"sourceName"`
			Sequence                *json.Number     `json:"sequence"`
			StartEpochMicrosec      *json.Number     `json:"startEpochMicrosec"`
			LastEpochMicrosec       *json.Number     `json:"lastEpochMicrosec"`
			Version                 *json.RawMessage `json:"version"`
			VesEventListenerVersion *string          `json:"vesEventListenerVersion"`
		} `json:"commonEventHeader"`
	} `json:"event"`
}

// BenchmarkValidate compares the emulator's single-pass checker with
// encoding/json on the same bodies. On the development machine the
// checker is several times faster than either stdlib option and
// allocates nothing.
func BenchmarkValidate(b *testing.B) {
	single, batch := benchEvent("bench"), benchBatch(20)
	rules := apiVersions()["v7"]
	b.Run("checker/event", func(b *testing.B) {
		c := &checker{rules: rules, enforce: true, seed: maphash.MakeSeed()}
		b.SetBytes(int64(len(single)))
		b.ReportAllocs()
		for b.Loop() {
			if v := c.check(single, false); v.outcome != outcomeOK {
				b.Fatal(v)
			}
		}
	})
	b.Run("checker/batch20", func(b *testing.B) {
		c := &checker{rules: rules, enforce: true, seed: maphash.MakeSeed()}
		b.SetBytes(int64(len(batch)))
		b.ReportAllocs()
		for b.Loop() {
			if v := c.check(batch, true); v.outcome != outcomeOK {
				b.Fatal(v)
			}
		}
	})
	b.Run("encoding-json-struct/event", func(b *testing.B) {
		b.SetBytes(int64(len(single)))
		b.ReportAllocs()
		for b.Loop() {
			var h headerOnly
			if err := json.Unmarshal(single, &h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json-valid/event", func(b *testing.B) {
		b.SetBytes(int64(len(single)))
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(single) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("encoding-json-map/event", func(b *testing.B) {
		b.SetBytes(int64(len(single)))
		b.ReportAllocs()
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(single, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHandle measures the whole request path (routing, auth,
// validation, duplicate detection, counters, response) without the
// network, which is what the emulator costs per request on top of
// fasthttp's own I/O.
func BenchmarkHandle(b *testing.B) {
	for _, bc := range []struct {
		name    string
		opts    Options
		schemas bool // read the collector's schemas from the shared folder
	}{
		{"plain", Options{}, false},
		{"auth", Options{Auth: "sample1:sample1"}, false},
		{"schemas", Options{}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.schemas {
				bc.opts.SchemaDir = shareddata.Dir(b, "ves")
			}
			st, err := bc.opts.normalise()
			if err != nil {
				b.Fatal(err)
			}
			s := newServer(st, hooks{})
			body := benchEvent("same-id") // duplicates take the same path as new ids
			var ctx fasthttp.RequestCtx
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.Header.SetMethod("POST")
				ctx.Request.SetRequestURI("/eventListener/v7")
				ctx.Request.Header.SetContentType("application/json")
				ctx.Request.Header.Set("Authorization", "Basic c2FtcGxlMTpzYW1wbGUx")
				ctx.Request.SetBodyRaw(body)
				s.handle(&ctx)
				if ctx.Response.StatusCode() != 202 {
					b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
				}
			}
		})
	}
}
