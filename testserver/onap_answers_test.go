package testserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
)

// The cases below are where the emulator answered otherwise than the
// collector until they were compared with ONAP's code: the answer each
// expects is the collector's, and the comment says where it comes from.

// sampleWithReference returns ONAP's valid stndDefined sample with its
// schemaReference replaced by ref and the fields NotifyNewAlarm requires
// taken out of its data, so that only a reference that does not name
// NotifyNewAlarm lets it through.
func sampleWithReference(t *testing.T, dir, ref string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "samples", "ves_stdnDefined_valid.json"))
	if err != nil {
		t.Fatalf("read sample: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("sample: %v", err)
	}
	fields := doc["event"].(map[string]any)["stndDefinedFields"].(map[string]any)
	fields["schemaReference"] = ref
	data := fields["data"].(map[string]any)
	for _, k := range []string{"alarmId", "alarmType", "probableCause", "perceivedSeverity"} {
		delete(data, k)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestONAPAnswers posts each case to an emulator reading the collector's
// schemas from the shared folder.
func TestONAPAnswers(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "ves")
	s := startServer(t, Options{SchemaDir: dir})
	pnf := func(v6 string) string { return pnf7(`,"oamV6IpAddress":"` + v6 + `"`) }
	cases := []answerCase{
		// The external schema manager (dcaegen2-services-sdk) takes a
		// reference without exactly one '#' as "<url>#/", and its
		// validator resolves "/" to the file's root: its own test
		// (validNoHashEvent) expects such an event to be valid, and the
		// collector's StndDefinedDataValidatorTest posts
		// ves_stdnDefined_missing_local_schema_reference.json (a mapped
		// URL, no '#', data that NotifyNewAlarm refuses) without an
		// exception. faultMnS.yaml's root holds no schema keyword, so any
		// data passes.
		{name: "reference without '#' checks against the file's root", body: sampleWithReference(t, dir, mnsFault), path: v7, status: 202},
		{name: "reference ending in '#'", body: sampleWithReference(t, dir, mnsFault+"#"), path: v7, status: 202},
		{name: "reference to '#/'", body: sampleWithReference(t, dir, mnsFault+"#/"), path: v7, status: 202},
		{name: "reference with two '#'", body: sampleWithReference(t, dir, mnsFault+"#components/schemas#NotifyNewAlarm"), path: v7, status: 202},
		{name: "the same data against NotifyNewAlarm", body: sampleWithReference(t, dir, mnsFault+"#components/schemas/NotifyNewAlarm"), path: v7, status: 400, msgID: svc2000, text: dataBad},
		{name: "unmapped URL without '#'", body: sampleWithReference(t, dir, "https://forge.3gpp.org/rep/sa5/MnS/blob/SA88-Rel16/OpenAPI/unknown.yaml"), path: v7, status: 400, msgID: svc2004, text: notInRepo},

		// Spring MVC 5.3 (the collector's @EnableWebMvc configuration)
		// matches a path with a trailing slash to the mapping without it.
		{name: "trailing slash", body: event7("ts1"), path: v7 + "/", status: 202},
		{name: "batch with a trailing slash", body: batch7("fault", "ts2"), path: v7b + "/", status: 202},
		{name: "unsupported version with a trailing slash", body: event7("ts3"), path: "/eventListener/v20/", status: 400, text: "API version v20 is not supported"},
		{name: "two trailing segments", body: event7("ts4"), path: v7b + "/x", status: 404, msgID: "spring"},

		// networknt json-schema-validator 1.0.49's ipv6 format is a
		// pattern that allows white space around the address, and a zone
		// of any characters but line terminators.
		{name: "ipv6 with spaces around", body: pnf(" 2001:db8::1 "), path: v7, status: 202},
		{name: "ipv6 with a tab before", body: pnf(`\t::1`), path: v7, status: 202},
		{name: "ipv6 zone with a space", body: pnf("fe80::1%eth 0"), path: v7, status: 202},
		{name: "ipv6 zone with a line separator", body: pnf(`fe80::1%eth\u20280`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 empty zone", body: pnf("fe80::1%"), path: v7, status: 400, msgID: svc0002},
		{name: "ipv4 with a space is not an ipv4", body: pnf7(`,"oamV4IpAddress":" 9.9.9.9"`), path: v7, status: 400, msgID: svc0002},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkAnswer(t, post(t, s, tc.path, tc.body), tc)
		})
	}
}

// TestMinorVersionSpelling: the collector copies the request's headers
// into a map keyed by the names as the client wrote them (Tomcat keeps
// their case) and looks up "X-MinorVersion" (CustomHeaderUtils of
// dcaegen2-services-sdk); a header spelled otherwise is never checked.
func TestMinorVersionSpelling(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	cases := []struct {
		headers [][2]string // in order, spelled as sent
		status  int
	}{
		{[][2]string{{"X-MinorVersion", "9"}}, 400},
		{[][2]string{{"X-MinorVersion", "2"}}, 202},
		{[][2]string{{"X-Minorversion", "9"}}, 202}, // Go's canonical spelling
		{[][2]string{{"x-minorversion", "9"}}, 202},
		{[][2]string{{"X-MINORVERSION", "9"}}, 202},
		{[][2]string{{"X-MinorVersion", ""}}, 202},
		// Tomcat lists a name once, in its first spelling, and gives its
		// first value.
		{[][2]string{{"x-minorversion", "9"}, {"X-MinorVersion", "2"}}, 202},
		{[][2]string{{"X-MinorVersion", "9"}, {"x-minorversion", "2"}}, 400},
		{[][2]string{{"X-MinorVersion", "2"}, {"x-minorversion", "9"}}, 202},
	}
	for i, tc := range cases {
		if got := rawStatus(t, s, v7, event7("mv"), tc.headers); got != tc.status {
			t.Errorf("case %d %q: status %d, want %d", i, tc.headers, got, tc.status)
		}
	}
	// The refusal is a bare string: Spring types it by the Accept header.
	for accept, want := range map[string]string{"": contentText, "application/json": contentJSON} {
		r := do(t, testClient(), http.MethodPost, s.URL()+v7, event7("mv"), map[string]string{"X-MinorVersion": "9", "Accept": accept})
		if r.status != 400 || r.body != invalidCustomHeaderBody || r.contentType != want {
			t.Errorf("Accept %q: %d %q %q, want 400 %q %q", accept, r.status, r.body, r.contentType, invalidCustomHeaderBody, want)
		}
	}
}

// rawStatus posts body to path with the headers written byte for byte in
// the order given (net/http would sort them), and returns the status.
func rawStatus(t *testing.T, s *Server, path, body string, headers [][2]string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.Addr(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n",
		path, s.Addr(), len(body))
	for _, h := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	b.WriteString("\r\n" + body)
	if _, err := io.WriteString(c, b.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestWrittenNumbers: the collector validates the text org.json writes
// the parsed body back to (JSONObject.toString), read by Jackson. A
// number is written as BigDecimal's toString with a plain fraction's
// trailing zeros shaved, so an integer-typed field takes 1.0 (written 1)
// and 1.5e1 (written 15) but not 1e3 (written 1E+3, a double to Jackson)
// nor 1.5 (networknt json-schema-validator 1.0.49 types a double as a
// number, never an integer).
func TestWrittenNumbers(t *testing.T) {
	t.Parallel()
	words := []struct{ in, out string }{
		{"1.0", "1"}, {"1.50", "1.5"}, {"1e3", "1E+3"}, {"1.5e1", "15"}, {"10e-1", "1"}, {"1e0", "1"},
		{"0.0000001", "1E-7"}, {"0.000123", "0.000123"}, {"0e5", "0E+5"}, {"-0.0", "-0"}, {"123.456e2", "12345.6"},
		{"1e5d", "100000"}, {"1.5f", "1.5"}, {"12345678901234567890.0", "12345678901234567890"},
	}
	for _, w := range words {
		if got, ok := orgNumber(w.in); !ok || string(got) != w.out {
			t.Errorf("%s written %q (%v), want %q", w.in, got, ok, w.out)
		}
	}
	if got, ok := orgNumber("1e9999999999"); ok {
		t.Errorf("1e9999999999 is a number %q: Double reads it as infinite, which org.json keeps as a string", got)
	}

	s := startServer(t, Options{SchemaDir: shareddata.Dir(t, "ves")})
	seq := func(v string) string { return strings.Replace(event7("n"), `"sequence":1`, `"sequence":`+v, 1) }
	for _, tc := range []answerCase{
		{name: "sequence 1.0", body: seq("1.0"), path: v7, status: 202},
		{name: "sequence 1.5e1", body: seq("1.5e1"), path: v7, status: 202},
		{name: "sequence 10e-1", body: seq("10e-1"), path: v7, status: 202},
		{name: "sequence -0.0", body: seq("-0.0"), path: v7, status: 202},
		{name: "sequence 1e3", body: seq("1e3"), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "sequence 1E2", body: seq("1E2"), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "sequence 1.5", body: seq("1.5"), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "sequence 0.0000000", body: seq("0.0000000"), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "a number field takes 1e3", body: strings.Replace(event7("n"), `"startEpochMicrosec":1700000000000000`, `"startEpochMicrosec":1.7e15`, 1), path: v7, status: 202},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkAnswer(t, post(t, s, tc.path, tc.body), tc)
		})
	}
}

// TestOptionsRequests: Spring's DispatcherServlet answers OPTIONS for a
// mapped path itself (Spring Boot turns dispatchOptionsRequest on): 200,
// Allow listing the mapping's methods, HEAD beside GET, and OPTIONS,
// before any Content-Type check; an unmapped path is 404 still (its Allow
// header is not compared).
func TestOptionsRequests(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	c := testClient()
	for _, tc := range []struct {
		path, allow string
		status      int
	}{
		{v7, "POST,OPTIONS", 200},
		{v7b, "POST,OPTIONS", 200},
		{"/eventListener/v20", "POST,OPTIONS", 200},
		{"/healthcheck", "GET,HEAD,OPTIONS", 200},
		{"/", "GET,HEAD,OPTIONS", 200},
		{"/listener/v7", "", 404},
	} {
		r := do(t, c, http.MethodOptions, s.URL()+tc.path, "", nil)
		if r.status != tc.status || tc.status == 200 && r.header.Get("Allow") != tc.allow {
			t.Errorf("OPTIONS %s: %d Allow %q, want %d %q", tc.path, r.status, r.header.Get("Allow"), tc.status, tc.allow)
		}
	}
}
