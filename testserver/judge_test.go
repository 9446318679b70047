package testserver

import (
	"encoding/json"
	"hash/maphash"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// judgeBodies are bodies for the judge's two paths: the collector's
// cases, the org.json table's leniencies, and the shapes the checker
// leaves to the parsed document (escaped keys and routing fields,
// duplicates deep inside, objects with many keys, deep nesting).
func judgeBodies(t *testing.T, dir string) []answerCase {
	t.Helper()
	fault7 := event7("f")
	many := make([]string, maxOrgKeys+1)
	for i := range many {
		many[i] = `"k` + strings.Repeat("x", i) + `":1`
	}
	cases := collectorCases()
	for i := range cases {
		if cases[i].file != "" {
			b, err := os.ReadFile(filepath.Join(dir, "samples", cases[i].file))
			if err != nil {
				t.Fatalf("read sample: %v", err)
			}
			cases[i].body, cases[i].file = string(b), ""
		}
	}
	return append(cases, []answerCase{
		{name: "escaped key", body: strings.Replace(fault7, `"faultFields"`, `"fault\u0046ields"`, 1), path: v7},
		{name: "escaped duplicate key", body: strings.Replace(fault7, `"sequence":1`, `"sequence":1,"s\u0065quence":1`, 1), path: v7},
		{name: "escaped domain", body: strings.Replace(fault7, `"domain":"fault"`, `"domain":"f\u0061ult"`, 1), path: v7},
		{name: "escaped unrouted domain", body: strings.Replace(fault7, `"domain":"fault"`, `"domain":"p\u0065rf3gpp"`, 1), path: v7},
		{name: "escaped namespace", body: stndSingle(`,"stndDefinedNamespace":"3GPP-FaultSupervisi\u006fn"`, "", `{}`), path: v7},
		{name: "escaped unknown namespace", body: stndSingle(`,"stndDefinedNamespace":"3GPP-Unkn\u006fwn"`, "", `{}`), path: v7},
		{name: "duplicate deep inside", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":{"y":[{"z":1,"z":2}]},`, 1), path: v7},
		{name: "same key in sibling objects", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":[{"z":1},{"z":2}],"z":3,`, 1), path: v7},
		{name: "many keys", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":{`+strings.Join(many, ",")+`},`, 1), path: v7},
		{name: "many keys, one repeated", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":{`+strings.Join(many, ",")+`,"k":2},`, 1), path: v7},
		{name: "deep", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":`+strings.Repeat("[", maxOrgDepth)+strings.Repeat("]", maxOrgDepth)+`,`, 1), path: v7},
		{name: "non-string domain", body: strings.Replace(fault7, `"domain":"fault"`, `"domain":7`, 1), path: v7},
		{name: "no domain", body: strings.Replace(fault7, `"domain":"fault",`, ``, 1), path: v7},
		{name: "batch with a non-object", body: `{"eventList":[1,` + strings.TrimSuffix(strings.TrimPrefix(fault7, `{"event":`), "}") + `]}`, path: v7b},
		{name: "batch of stndDefined", body: `{"eventList":[` + stndEvent("a", nsFault, stndFields("", `{}`)) + `,` + stndEvent("b", nsFault, stndFields("", `{}`)) + `]}`, path: v7b},
		{name: "invalid UTF-8", body: strings.Replace(fault7, `"src"`, "\"s\xffrc\"", 1), path: v7},
		{name: "raw tab", body: strings.Replace(fault7, `"src"`, "\"s\trc\"", 1), path: v7},
		{name: "white space around", body: " \t\r\n" + fault7 + "\n ", path: v7},
		{name: "control byte before", body: "\x01" + fault7, path: v7},
		{name: "empty object", body: `{}`, path: v7},
		{name: "empty batch", body: `{"eventList":[]}`, path: v7b},
	}...)
}

// TestJudgePathsAgree: judging a body in the checker's one pass gives
// the verdict (and event ids) that the collector's parse-first path
// gives, with and without schemas, validation or strict JSON.
func TestJudgePathsAgree(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "ves")
	bodies := judgeBodies(t, dir)
	for _, o := range []struct {
		name string
		opts Options
	}{
		{"schemas", Options{SchemaDir: dir}},
		{"schemas, no validation", Options{SchemaDir: dir, NoValidate: true}},
		{"schemas, strict JSON", Options{SchemaDir: dir, StrictJSON: true}},
		{"built-in rules", Options{}},
		{"no validation", Options{NoValidate: true}},
		{"strict JSON", Options{StrictJSON: true}},
	} {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			st, err := o.opts.normalise()
			if err != nil {
				t.Fatal(err)
			}
			s := newServer(st, hooks{})
			fast, slow := s.checkers.Get().(*checker), s.checkers.Get().(*checker)
			for _, tc := range bodies {
				version, tail, _ := strings.Cut(strings.TrimPrefix(tc.path, "/eventListener/"), "/")
				batch := tail == "eventBatch"
				fast.rules, slow.rules = s.versions[version], s.versions[version]
				got := s.judge(fast, []byte(tc.body), version, batch)
				want := s.judgeParsed(slow, []byte(tc.body), version, batch)
				if got != want {
					t.Errorf("%s: one pass %+v, parsed %+v", tc.name, got, want)
				}
				if want.outcome == outcomeOK && !reflect.DeepEqual(fast.ids, slow.ids) {
					t.Errorf("%s: event ids %v, parsed %v", tc.name, fast.ids, slow.ids)
				}
			}
		})
	}
}

// FuzzPlainJSON checks the checker's promise: a body it calls plain JSON
// is one encoding/json accepts and org.json parses (to the same document
// with the scan's sizes), and the stream id it reads from the body is the
// one the parsed document gives.
func FuzzPlainJSON(f *testing.F) {
	for _, seed := range []string{
		event7("a"), batch7("fault", "a", "b"), `{"a":{"b":1,"b":2}}`, `{"a\u0062":1,"ab":2}`, `{"a":[{"x":1},{"x":2}]}`,
		`{"event":{"commonEventHeader":{"domain":"stndDefined","stndDefinedNamespace":"n\u0041"}}}`,
		`{"eventList":[{"commonEventHeader":{"domain":"fault"}},{"commonEventHeader":{"domain":"x"}}]}`,
		`{"a":1}x`, `{"a":1,}`, `{'a':1}`, ` {"a":[]} `, "\x01{}", `{"a":"\ud83d"}`,
	} {
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, batch bool) {
		c := &checker{rules: apiVersions()["v7"], seed: maphash.MakeSeed()}
		v := c.check(body, batch)
		if !c.plainJSON() {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("plain JSON that encoding/json refuses: %q", body)
		}
		tree, err := parseOrgJSON(body)
		if err != nil {
			t.Fatalf("plain JSON that org.json refuses: %q: %v", body, err)
		}
		if sized, err := parseOrgJSONSized(body, &keyNames{}, c.sc.sizes); err != nil || !reflect.DeepEqual(sized, tree) {
			t.Fatalf("sized by the scan: %v, %v; else %v", sized, err, tree)
		}
		want := bodyKey(batch)
		if id, ok := c.stream(); ok && v.outcome == outcomeOK && string(id) != streamOf(tree, want) {
			t.Fatalf("stream %q, the parsed document's %q: %q", id, streamOf(tree, want), body)
		}
	})
}

// TestJudgeAllocatesNothing: without schemas, judging a plain JSON event
// or batch allocates nothing once the checker has grown its tables.
func TestJudgeAllocatesNothing(t *testing.T) {
	st, err := Options{}.normalise()
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(st, hooks{})
	c := s.checkers.Get().(*checker)
	c.rules = s.versions["v7"]
	for _, b := range []struct {
		body  []byte
		batch bool
	}{{benchEvent("one"), false}, {benchBatch(20), true}} {
		if v := s.judge(c, b.body, "v7", b.batch); v.outcome != outcomeOK || len(c.ids) == 0 {
			t.Fatalf("verdict %v, %d ids", v, len(c.ids))
		}
		if a := testing.AllocsPerRun(200, func() { s.judge(c, b.body, "v7", b.batch) }); a != 0 {
			t.Errorf("batch %v: %v allocations per request, want 0", b.batch, a)
		}
	}
}
