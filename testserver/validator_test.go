package testserver

import (
	"encoding/json"
	"hash/maphash"
	"strings"
	"testing"
)

func newTestChecker(version string, enforce bool) *checker {
	return &checker{rules: apiVersions()[version], enforce: enforce, seed: maphash.MakeSeed()}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	stnd := func(ns string) string {
		return `{"commonEventHeader":` + header7("s", "stndDefined", ns) + `}`
	}
	tests := []struct {
		name    string
		version string
		batch   bool
		noCheck bool
		body    string
		want    outcome
		events  int
		field   string
	}{
		{name: "valid v7 event", version: "v7", body: event7("a"), want: outcomeOK, events: 1},
		{name: "valid v7 batch", version: "v7", batch: true, body: batch7("fault", "a", "b", "c"), want: outcomeOK, events: 3},
		{name: "valid v5 event", version: "v5", body: event5("a"), want: outcomeOK, events: 1},
		{name: "v1 uses v5 rules", version: "v1", body: event5("a"), want: outcomeOK, events: 1},
		{name: "extra top-level key ignored", version: "v7", body: `{"x":[1,{"y":null}],` + event7("a")[1:], want: outcomeOK, events: 1},
		{name: "whitespace everywhere", version: "v7", body: " \n" + strings.ReplaceAll(event7("a"), ",", " ,\t") + "\r\n", want: outcomeOK, events: 1},
		{name: "escaped key matches", version: "v7", body: strings.Replace(event7("a"), `"event"`, `"\u0065vent"`, 1), want: outcomeOK, events: 1},
		{name: "escaped enum value matches", version: "v7", body: strings.Replace(event7("a"), `"High"`, `"H\u0069gh"`, 1), want: outcomeOK, events: 1},
		{name: "empty body", version: "v7", body: ``, want: outcomeBadJSON},
		{name: "truncated", version: "v7", body: event7("a")[:40], want: outcomeBadJSON},
		{name: "trailing garbage", version: "v7", body: event7("a") + "x", want: outcomeBadJSON},
		{name: "trailing comma", version: "v7", body: `{"event":{"commonEventHeader":{},},}`, want: outcomeBadJSON},
		{name: "array body", version: "v7", body: `[` + event7("a") + `]`, want: outcomeBadJSON},
		{name: "missing event", version: "v7", body: `{"evnt":{}}`, want: outcomeBadJSON},
		{name: "eventList on single path", version: "v7", body: batch7("fault", "a"), want: outcomeBadJSON},
		{name: "event on batch path", version: "v7", batch: true, body: event7("a"), want: outcomeBadJSON},
		{name: "syntax error after schema error", version: "v7", body: `{"event":{"x":1},"y":tru}`, want: outcomeBadJSON},
		{name: "event not an object", version: "v7", body: `{"event":[]}`, want: outcomeSchema, field: "event"},
		{name: "eventList not an array", version: "v7", batch: true, body: `{"eventList":{}}`, want: outcomeSchema, field: "eventList"},
		{name: "no header", version: "v7", body: `{"event":{"faultFields":{}}}`, want: outcomeSchema, events: 1, field: "event.commonEventHeader"},
		{name: "missing required field", version: "v7", body: strings.Replace(event7("a"), `"sequence":1,`, ``, 1), want: outcomeSchema, events: 1, field: "commonEventHeader"},
		{name: "sequence not integer", version: "v7", body: strings.Replace(event7("a"), `"sequence":1`, `"sequence":1.5`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.sequence"},
		{name: "sequence as string", version: "v7", body: strings.Replace(event7("a"), `"sequence":1`, `"sequence":"1"`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.sequence"},
		{name: "epoch as exponent is a number", version: "v7", body: strings.Replace(event7("a"), `"startEpochMicrosec":1700000000000000`, `"startEpochMicrosec":1.7e15`, 1), want: outcomeOK, events: 1},
		{name: "bad priority", version: "v7", body: strings.Replace(event7("a"), `"High"`, `"Urgent"`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.priority"},
		{name: "bad v7 domain", version: "v7", body: strings.Replace(event7("a"), `"fault"`, `"measurementsForVfScaling"`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.domain"},
		{name: "v7 version as number", version: "v7", body: strings.Replace(event7("a"), `"version":"4.1"`, `"version":4.1`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.version"},
		{name: "v7 unknown version", version: "v7", body: strings.Replace(event7("a"), `"version":"4.1"`, `"version":"4.0.2"`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader.version"},
		{name: "v7 unknown header field", version: "v7", body: strings.Replace(event7("a"), `"sequence"`, `"dummy":"x","sequence"`, 1), want: outcomeSchema, events: 1, field: "commonEventHeader"},
		{name: "v7 unknown event field", version: "v7", body: strings.Replace(event7("a"), `"faultFields"`, `"fooFields"`, 1), want: outcomeSchema, events: 1, field: "event"},
		{name: "v7 event on v5", version: "v5", body: event7("a"), want: outcomeSchema, events: 1},
		{name: "v5 accepts unknown header field", version: "v5", body: strings.Replace(event5("a"), `"sequence"`, `"dummy":"x","sequence"`, 1), want: outcomeOK, events: 1},
		{name: "header checks off", version: "v7", noCheck: true, body: `{"event":{"commonEventHeader":{"domain":"fault","dummy":1}}}`, want: outcomeOK, events: 1},
		{name: "shape still checked when off", version: "v7", noCheck: true, body: `{"event":"x"}`, want: outcomeSchema, field: "event"},
		{name: "mixed domains", version: "v7", batch: true, body: `{"eventList":[{"commonEventHeader":` + header7("a", "fault", "") + `},{"commonEventHeader":` + header7("b", "heartbeat", "") + `}]}`, want: outcomeMixedDomains, events: 2},
		{name: "empty eventList", version: "v7", batch: true, body: `{"eventList":[]}`, want: outcomeMixedDomains},
		{name: "stndDefined without namespace", version: "v7", body: `{"event":` + stnd("") + `}`, want: outcomeMissingNamespace, events: 1},
		{name: "stndDefined with empty namespace", version: "v7", body: `{"event":` + stnd(`,"stndDefinedNamespace":""`) + `}`, want: outcomeEmptyNamespace, events: 1},
		{name: "stndDefined batch, same namespace", version: "v7", batch: true, body: `{"eventList":[` + stnd(`,"stndDefinedNamespace":"3GPP-Heartbeat"`) + `,` + stnd(`,"stndDefinedNamespace":"3GPP-Heartbeat"`) + `]}`, want: outcomeOK, events: 2},
		{name: "stndDefined batch, mixed namespaces", version: "v7", batch: true, body: `{"eventList":[` + stnd(`,"stndDefinedNamespace":"3GPP-Heartbeat"`) + `,` + stnd(`,"stndDefinedNamespace":"3GPP-FaultSupervision"`) + `]}`, want: outcomeMixedNamespaces, events: 2},
		{name: "mixed domains before a missing namespace", version: "v7", batch: true, body: `{"eventList":[{"commonEventHeader":` + header7("a", "fault", "") + `},` + stnd("") + `]}`, want: outcomeMixedDomains, events: 2},
		{name: "missing namespace before mixed namespaces", version: "v7", batch: true, body: `{"eventList":[` + stnd(`,"stndDefinedNamespace":"3GPP-Heartbeat"`) + `,` + stnd("") + `]}`, want: outcomeMissingNamespace, events: 2},
		{name: "empty and set namespaces differ", version: "v7", batch: true, body: `{"eventList":[` + stnd(`,"stndDefinedNamespace":""`) + `,` + stnd(`,"stndDefinedNamespace":"3GPP-Heartbeat"`) + `]}`, want: outcomeMixedNamespaces, events: 2},
		{name: "schema error wins over batch error", version: "v7", batch: true, body: `{"eventList":[{"commonEventHeader":` + header7("a", "fault", "") + `},{"commonEventHeader":{}}]}`, want: outcomeSchema, events: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newTestChecker(tc.version, !tc.noCheck)
			v := c.check([]byte(tc.body), tc.batch)
			if v.outcome != tc.want {
				t.Fatalf("outcome = %d (%s), want %d", v.outcome, v, tc.want)
			}
			if v.events != tc.events {
				t.Errorf("events = %d, want %d", v.events, tc.events)
			}
			if tc.field != "" && v.field != tc.field {
				t.Errorf("field = %q, want %q (%s)", v.field, tc.field, v)
			}
		})
	}
}

// TestCheckEventIDs checks that every event's id is hashed, equal ids
// equally, so that the server can count duplicates.
func TestCheckEventIDs(t *testing.T) {
	t.Parallel()
	c := newTestChecker("v7", true)
	if v := c.check([]byte(batch7("fault", "a", "b", "a")), true); v.outcome != outcomeOK {
		t.Fatalf("check: %s", v)
	}
	if len(c.ids) != 3 {
		t.Fatalf("ids = %d, want 3", len(c.ids))
	}
	if c.ids[0] != c.ids[2] || c.ids[0] == c.ids[1] {
		t.Errorf("hashes %x: want ids[0]==ids[2]!=ids[1]", c.ids)
	}
	// Reuse must start afresh.
	if v := c.check([]byte(event7("z")), false); v.outcome != outcomeOK || len(c.ids) != 1 {
		t.Errorf("second check: %s, %d ids; want ok and 1 id", v, len(c.ids))
	}
}

func TestUnescape(t *testing.T) {
	t.Parallel()
	tests := []string{
		`plain`, `a\"b`, `\\\/\b\f\n\r\t`, `\u00e9\u4e2d`, `\ud83d\ude00`, `\ud83d`, `\ude00x`,
		`\ud83d\u0041`, `\ud83d\ud83d\ude00`,
	}
	for _, raw := range tests {
		var want string
		if err := json.Unmarshal([]byte(`"`+raw+`"`), &want); err != nil {
			t.Fatalf("reference decode of %q: %v", raw, err)
		}
		if got := string(unescape(nil, []byte(raw))); got != want {
			t.Errorf("unescape(%q) = %q, want %q", raw, got, want)
		}
	}
}

// FuzzCheck feeds arbitrary bodies to the validator: it must not panic,
// must agree with encoding/json on what is syntactically valid JSON, and
// must only return outcomes from the documented set, with an accepted
// body always holding at least one event.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		event7("a"), batch7("fault", "a", "b"), event5("x"), `{"eventList":[]}`, `{"event":[]}`,
		`{"event":{"commonEventHeader":{"domain":"stndDefined","stndDefinedNamespace":""}}}`,
		`{"a":"\ud83d\ude00","b":-0.5e+3,"c":[true,false,null]}`, `[`, `{"event":`, `"\u12"`, `01`, ``,
	} {
		f.Add([]byte(seed), false, "v7")
		f.Add([]byte(seed), true, "v5")
	}
	versions := apiVersions()
	f.Fuzz(func(t *testing.T, body []byte, batch bool, version string) {
		rules := versions[version]
		if rules == nil {
			rules = versions["v7"]
		}
		for _, enforce := range []bool{true, false} {
			c := &checker{rules: rules, enforce: enforce, seed: maphash.MakeSeed()}
			v := c.check(body, batch)
			if v.outcome > outcomeMixedNamespaces {
				t.Fatalf("outcome %d outside the documented set", v.outcome)
			}
			syntaxOK := !c.sc.bad
			if syntaxOK != json.Valid(body) {
				t.Fatalf("syntax valid = %v, encoding/json says %v, for %q", syntaxOK, json.Valid(body), body)
			}
			if !syntaxOK && v.outcome != outcomeBadJSON {
				t.Fatalf("invalid JSON got outcome %d, want bad JSON", v.outcome)
			}
			if v.outcome == outcomeOK && (v.events < 1 || len(c.ids) > v.events) {
				t.Fatalf("accepted with %d events and %d ids", v.events, len(c.ids))
			}
		}
	})
}
