package testserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseOrgJSON checks what org.json 20220320's JSONObject(String)
// makes of a body: the value it builds, or that it throws.
func TestParseOrgJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want string // the document as strict JSON; "" when org.json throws
	}{
		{"plain", `{"a":1,"b":[true,null,"x"]}`, `{"a":1,"b":[true,null,"x"]}`},
		{"leading white space and control bytes", "\x01 \t\r\n{\"a\":1}", `{"a":1}`},
		{"trailing garbage", `{"a":1}xyz`, `{"a":1}`},
		{"extra closing brace", `{"a":1}}`, `{"a":1}`},
		{"second object", `{"a":1}{"b":`, `{"a":1}`},
		{"trailing comma in object", `{"a":1,}`, `{"a":1}`},
		{"trailing comma in array", `{"a":[1,2,]}`, `{"a":[1,2]}`},
		{"empty array element is null", `{"a":[1,,2]}`, `{"a":[1,null,2]}`},
		{"leading empty element", `{"a":[,1]}`, `{"a":[null,1]}`},
		{"semicolon between members", `{"a":1;"b":2}`, `{"a":1,"b":2}`},
		{"single quotes", `{'a':'it''s'}`, ""},
		{"single-quoted string with a double quote", `{'a':'say "hi"'}`, `{"a":"say \"hi\""}`},
		{"escaped single quote", `{"a":"\'"}`, `{"a":"'"}`},
		{"unquoted key", `{a:1}`, `{"a":1}`},
		{"unquoted key with a space", `{a b:1}`, `{"a b":1}`},
		{"bare word", `{"a":High}`, `{"a":"High"}`},
		{"bare word with trailing spaces", `{"a":High  }`, `{"a":"High"}`},
		{"bare booleans in any case", `{"a":TRUE,"b":False,"c":NULL}`, `{"a":true,"b":false,"c":null}`},
		{"bare true as a key", `{true:1}`, `{"true":1}`},
		{"number key", `{1:1}`, `{"1":1}`},
		{"leading zero stays a string", `{"a":01}`, `{"a":"01"}`},
		{"negative leading zero stays a string", `{"a":-01}`, `{"a":"-01"}`},
		{"plus sign stays a string", `{"a":+1}`, `{"a":"+1"}`},
		{"minus alone stays a string", `{"a":-}`, `{"a":"-"}`},
		{"decimal forms", `{"a":1.,"b":-.5,"c":1.5E3,"d":2e-2,"e":1.5d,"f":-0}`, `{"a":1,"b":-0.5,"c":1.5E+3,"d":0.02,"e":1.5,"f":-0}`},
		{"bad decimal stays a string", `{"a":1.2.3,"b":1e}`, `{"a":"1.2.3","b":"1e"}`},
		{"hex stays a string", `{"a":0x10}`, `{"a":"0x10"}`},
		{"unicode escapes", `{"a":"\u0041\u00e9\ud83d\ude00"}`, `{"a":"Aé😀"}`},
		{"lone surrogate", `{"a":"\ud83dx"}`, `{"a":"\ufffdx"}`},
		{"signed unicode escape", `{"a":"\u-001"}`, `{"a":"\uffff"}`},
		{"raw tab in a string", "{\"a\":\"x\ty\"}", `{"a":"x\ty"}`},
		{"nested", `{"a":{"b":{"c":[{"d":1}]}}}`, `{"a":{"b":{"c":[{"d":1}]}}}`},

		{"empty", ``, ""},
		{"white space only", `  `, ""},
		{"top-level array", `[{"a":1}]`, ""},
		{"top-level string", `"a"`, ""},
		{"truncated object", `{"a":1`, ""},
		{"truncated string", `{"a":"x`, ""},
		{"truncated array", `{"a":[1`, ""},
		{"array ending in a comma", `{"a":[1,`, ""},
		{"bad escape", `{"a":"\x"}`, ""},
		{"short unicode escape", `{"a":"\u12"}`, ""},
		{"non-hex unicode escape", `{"a":"\u12g4"}`, ""},
		{"line break in a string", "{\"a\":\"x\ny\"}", ""},
		{"carriage return in a string", "{\"a\":\"x\ry\"}", ""},
		{"duplicate key", `{"a":1,"a":1}`, ""},
		{"duplicate key after null", `{"a":null,"a":1}`, ""},
		{"duplicate key spelled differently", `{"a":1,a:2}`, ""},
		{"missing value", `{"a":}`, ""},
		{"missing colon", `{"a" 1}`, ""},
		{"equals sign", `{"a"=1}`, ""},
		{"two commas", `{"a":1,,"b":2}`, ""},
		{"comment", `{"a":1 /* x */}`, ""},
		{"NUL ends the text", "{\"a\":1\x00}", ""},
		{"too deep", strings.Repeat(`{"a":`, maxOrgDepth+1) + "1" + strings.Repeat("}", maxOrgDepth+1), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseOrgJSON([]byte(tc.body))
			names := &keyNames{}
			for range 2 { // the second time, the keys come from names
				n, nerr := parseOrgJSONSized([]byte(tc.body), names, nil)
				if fmt.Sprint(nerr) != fmt.Sprint(err) || !reflect.DeepEqual(n, got) {
					t.Fatalf("with key names: %v, %v; without: %v, %v", n, nerr, got, err)
				}
			}
			if tc.want == "" {
				if err == nil {
					t.Fatalf("parsed %v, want an error", got)
				}
				if !errors.Is(err, errOrgSyntax) {
					t.Errorf("error %v does not wrap errOrgSyntax", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v, want %s", err, tc.want)
			}
			var want map[string]any
			dec := json.NewDecoder(strings.NewReader(tc.want))
			dec.UseNumber()
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("bad test: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// FuzzParseOrgJSON checks that the parser never panics and that, on
// strict JSON objects (valid UTF-8, no duplicate keys), it builds the
// same document encoding/json does.
func FuzzParseOrgJSON(f *testing.F) {
	for _, seed := range []string{
		event7("a"), batch7("fault", "a", "b"), `{"a":[1,,2,],'b':c;d:TRUE}`, `{"a":"\ud83d\ude00\u-001"}`,
		`{"a":1.5e3,"b":-0,"c":01,"d":1.}`, `[`, `{`, `{"a":"\x"}`, `{"a":1,"a":2}`, `{"a":1}}xyz`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := parseOrgJSON(body)
		names := &keyNames{}
		for range 2 { // the second time, the keys come from names
			n, nerr := parseOrgJSONSized(body, names, nil)
			if fmt.Sprint(nerr) != fmt.Sprint(err) || !reflect.DeepEqual(n, got) {
				t.Fatalf("with key names: %v, %v; without: %v, %v", n, nerr, got, err)
			}
		}
		if err != nil {
			if !errors.Is(err, errOrgSyntax) {
				t.Fatalf("error %v does not wrap errOrgSyntax", err)
			}
			if got != nil {
				t.Fatalf("error %v with a document", err)
			}
			return
		}
		if _, err := json.Marshal(got); err != nil {
			t.Fatalf("document does not encode as JSON: %v", err)
		}
		trimmed := bytes.TrimSpace(body)
		if !json.Valid(body) || !utf8.Valid(body) || len(trimmed) == 0 || trimmed[0] != '{' {
			return
		}
		var want map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if !reflect.DeepEqual(numbersAsRat(got), numbersAsRat(want)) {
			t.Fatalf("org.json parse %#v, encoding/json %#v", got, want)
		}
	})
}

// numbersAsRat replaces json.Number values by their exact value, so that
// 1E5 and 1e5 compare equal.
func numbersAsRat(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = numbersAsRat(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = numbersAsRat(e)
		}
		return a
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return "bad number " + string(x)
		}
		return r.RatString()
	}
	return v
}
