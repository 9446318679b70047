package testserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// Bodies below are built to show one property of ONAP's test material
// each; the files themselves are read from the shared folder.

// event4 is a CommonEventFormat 27.2 event (API v1-v4): its header needs
// functionalRole, and knows neither eventName nor vesEventListenerVersion.
func event4(extra string) string {
	return `{"event":{"commonEventHeader":{"domain":"fault","eventId":"e4","functionalRole":"rdm",` +
		`"priority":"High","reportingEntityName":"re","sequence":0,"sourceName":"src",` +
		`"startEpochMicrosec":1469528413000,"lastEpochMicrosec":1469528413000,"version":1.0` + extra + `}}}`
}

// stndEvent is a v7 stndDefined event with the given namespace header
// member (already JSON, with a leading comma, or empty) and
// stndDefinedFields.
func stndEvent(id, ns, fields string) string {
	return `{"commonEventHeader":` + header7(id, "stndDefined", ns) + `,"stndDefinedFields":` + fields + `}`
}

const (
	mnsFault = "https://forge.3gpp.org/rep/sa5/MnS/blob/SA88-Rel16/OpenAPI/faultMnS.yaml"
	nsFault  = `,"stndDefinedNamespace":"3GPP-FaultSupervision"`
	// alarmData has what NotifyNewAlarm requires, with the loose types
	// (numbers where the schema says string) of ONAP's own valid sample.
	alarmData = `{"href":1,"notificationId":1,"notificationType":"notifyNewAlarm","eventTime":"xyz",` +
		`"systemDN":"xyz","alarmId":"1","alarmType":"COMMUNICATIONS_ALARM","probableCause":1,` +
		`"perceivedSeverity":"INDETERMINATE"}`
)

func stndFields(ref, data string) string {
	if ref == "" {
		return `{"data":` + data + `,"stndDefinedFieldsVersion":"1.0"}`
	}
	return `{"schemaReference":"` + ref + `","data":` + data + `,"stndDefinedFieldsVersion":"1.0"}`
}

func stndSingle(ns, ref, data string) string {
	return `{"event":` + stndEvent("s", ns, stndFields(ref, data)) + `}`
}

// pnf7 is a v7 pnfRegistration event with the given registration fields.
func pnf7(fields string) string {
	return `{"event":{"commonEventHeader":` + header7("p", "pnfRegistration", "") +
		`,"pnfRegistrationFields":{"pnfRegistrationFieldsVersion":"2.1"` + fields + `}}}`
}

// answerCase is one request and the collector's answer to it.
type answerCase struct {
	name   string
	file   string // a file of ../shared/ves/samples, or
	body   string // an inline body
	path   string
	status int
	msgID  string // "ServiceException SVC0002"; "spring" for Spring's error page
	text   string // a piece of the answer's body
}

const (
	v7, v7b, v5, v5b, v4, v1 = "/eventListener/v7", "/eventListener/v7/eventBatch", "/eventListener/v5",
		"/eventListener/v5/eventBatch", "/eventListener/v4", "/eventListener/v1"
	svc0002   = "ServiceException SVC0002"
	svc0001   = "ServiceException SVC0001"
	svc2000   = "ServiceException SVC2000"
	svc2004   = "ServiceException SVC2004"
	svc2006   = "ServiceException SVC2006"
	badSchema = "JSON does not conform to schema"
	noStream  = "No domain defined for stream id"
	dataBad   = "event.stndDefinedFields.data invalid against event.stndDefinedFields.schemaReference"
	refBad    = "does not correspond to any external event schema file"
	notInRepo = "Referred external schema not present in schema repository"
)

// collectorCases are the answers of the collector in its default
// configuration, read from its code, its unit tests' expected
// exceptions and the CSIT suites.
func collectorCases() []answerCase {
	fault7 := event7("f")
	return []answerCase{
		// ONAP's sample files.
		{name: "30.1.1 valid event", file: "ves7_valid_30_1_1_event.json", path: v7, status: 202},
		{name: "measurement (routed in the deployed config)", file: "measurement7x.json", path: v7, status: 202},
		{name: "CSIT valid", file: "csit_ves7_valid.json", path: v7, status: 202},
		{name: "CSIT pnfRegistration", file: "csit_ves7_pnf_registration_event.json", path: v7, status: 202},
		{name: "notification", file: "notification_FileReadyEvent.json", path: v7, status: 202},
		{name: "v7 batch", file: "ves7_batch_valid.json", path: v7b, status: 202},
		{name: "v5 measurement", file: "measurement5x.json", path: v5, status: 202},
		{name: "CSIT v5 fault", file: "csit_ves_volte_single_fault_event.json", path: v5, status: 202},
		{name: "CSIT v5 batch", file: "csit_ves_volte_fault_eventlist_batch.json", path: v5b, status: 202},
		{name: "extra header property", file: "csit_ves7_parameter_out_of_schema.json", path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "versions outside the enums", file: "heartbeat_test1.json", path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "v7 event on v5", file: "csit_ves7_valid.json", path: v5, status: 400, msgID: svc0002, text: badSchema},
		{name: "batch on the single path", file: "ves7_batch_valid.json", path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		// stndDefined samples whose schemaReference uses a URL
		// (data-models/blob/REL-16) the default schema map does not list.
		{name: "stndDefined sample", file: "ves_stdnDefined_valid.json", path: v7, status: 202},
		{name: "CSIT stndDefined 3GPP-Heartbeat", file: "csit_ves_stdnDefined_3GPP-Heartbeat.json", path: v7, status: 202},
		// A batch whose schemaReference uses a URL (data-models/blob/REL-16)
		// the default schema map does not list.
		{name: "stndDefined batch, unmapped URL", file: "ves7_batch_with_stndDefined_valid.json", path: v7b, status: 400, msgID: svc2004, text: notInRepo},

		// v1-v4: CommonEventFormat 27.2.
		{name: "27.2 event on v4", body: event4(""), path: v4, status: 202},
		{name: "27.2 event on v1", body: event4(""), path: v1, status: 202},
		{name: "27.2 event on v5", body: event4(""), path: v5, status: 400, msgID: svc0002, text: badSchema},
		{name: "27.2 event without sourceName", body: strings.Replace(event4(""), `"sourceName":"src",`, ``, 1), path: v4, status: 400, msgID: svc0002},
		{name: "v5 event on v4 (no functionalRole)", file: "measurement5x.json", path: v4, status: 400, msgID: svc0002, text: badSchema},
		{name: "v5 fault on v4", file: "csit_ves_volte_single_fault_event.json", path: v4, status: 400, msgID: svc0002},

		// Routing: a domain or namespace without a stream.
		{name: "perf3gpp has no stream", body: strings.Replace(fault7, `"fault"`, `"perf3gpp"`, 1), path: v7, status: 400, msgID: svc2000, text: noStream},
		{name: "perf3gpp batch", body: batch7("perf3gpp", "a", "b"), path: v7b, status: 400, msgID: svc2000, text: noStream},
		{name: "unknown namespace", body: stndSingle(`,"stndDefinedNamespace":"3GPP-Unknown"`, mnsFault+"#components/schemas/NotifyNewAlarm", alarmData), path: v7, status: 400, msgID: svc2000, text: noStream},

		// Format checks.
		{name: "ipv4 dotted", body: pnf7(`,"oamV4IpAddress":"9.9.9.9"`), path: v7, status: 202},
		{name: "ipv4 leading zeros", body: pnf7(`,"oamV4IpAddress":"09.09.09.09"`), path: v7, status: 202},
		{name: "ipv4 with letters", body: pnf7(`,"oamV4IpAddress":"09.09.09.09aaaf"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv4 given an ipv6", body: pnf7(`,"oamV4IpAddress":"2001:0db8:85a3:0000:0000:8a2e:0370:7334"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 short", body: pnf7(`,"oamV6IpAddress":"2001:db2:31:1041:204a::1337"`), path: v7, status: 202},
		{name: "ipv6 ::", body: pnf7(`,"oamV6IpAddress":"::"`), path: v7, status: 202},
		{name: "ipv6 full", body: pnf7(`,"oamV6IpAddress":"2001:0db8:85a3:0000:0000:8a2e:0370:7334"`), path: v7, status: 202},
		{name: "ipv6 ends in ::", body: pnf7(`,"oamV6IpAddress":"ff0::"`), path: v7, status: 202},
		{name: "ipv6 upper case", body: pnf7(`,"oamV6IpAddress":"2001:DB8::1"`), path: v7, status: 202},
		{name: "ipv6 multicast", body: pnf7(`,"oamV6IpAddress":"FF01:0:0:0:0:0:0:1"`), path: v7, status: 202},
		{name: "ipv6 ipv4-translated", body: pnf7(`,"oamV6IpAddress":"::ffff:0:10.0.0.3"`), path: v7, status: 202},
		{name: "ipv6 zone", body: pnf7(`,"oamV6IpAddress":"fe80::1ff:fe23:4567:890a%eth2"`), path: v7, status: 202},
		{name: "ipv6 :::", body: pnf7(`,"oamV6IpAddress":"1234:::aabc"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 too many colons", body: pnf7(`,"oamV6IpAddress":"1234:::::::1221:::00af"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 given an ipv4", body: pnf7(`,"oamV6IpAddress":"09.09.09.09"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 given a dotted quad", body: pnf7(`,"oamV6IpAddress":"101.5.40.1"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 leading colon", body: pnf7(`,"oamV6IpAddress":":ffff:0:10.0.0.3"`), path: v7, status: 400, msgID: svc0002},
		{name: "ipv6 two ::", body: pnf7(`,"oamV6IpAddress":"2001:0db8:85a3::8a2e::7334"`), path: v7, status: 400, msgID: svc0002},
		{name: "schemaReference not a URI", body: stndSingle(nsFault, "faultMnS.yaml#components/schemas/NotifyNewAlarm", alarmData), path: v7, status: 400, msgID: svc0002},

		// stndDefined data against the 3GPP schemas.
		{name: "stndDefined valid", body: stndSingle(nsFault, mnsFault+"#components/schemas/NotifyNewAlarm", alarmData), path: v7, status: 202},
		{name: "stndDefined absolute pointer", body: stndSingle(nsFault, mnsFault+"#/components/schemas/NotifyNewAlarm", alarmData), path: v7, status: 202},
		{name: "stndDefined empty data", body: stndSingle(nsFault, mnsFault+"#components/schemas/NotifyNewAlarm", `{}`), path: v7, status: 400, msgID: svc2000, text: dataBad},
		{name: "stndDefined wrong types", body: stndSingle(nsFault, mnsFault+"#components/schemas/NotifyNewAlarm", strings.Replace(alarmData, `"INDETERMINATE"`, `1`, 1)), path: v7, status: 400, msgID: svc2000, text: dataBad},
		{name: "stndDefined without schemaReference", body: stndSingle(nsFault, "", `{}`), path: v7, status: 202},
		{name: "stndDefined unmapped URL", body: stndSingle(nsFault, "https://forge.3gpp.org/rep/sa5/data-models/tree/SA88-Rel16/OpenAPI/invalid-ref.json", alarmData), path: v7, status: 400, msgID: svc2004, text: notInRepo},
		{name: "stndDefined wrong internal reference", body: stndSingle(nsFault, mnsFault+"#components/schemas/dummyRef", alarmData), path: v7, status: 400, msgID: svc2000, text: refBad},
		{name: "stndDefined reference without #", body: stndSingle(nsFault, mnsFault, `{}`), path: v7, status: 202},
		{name: "stndDefined data checked before the namespace", body: stndSingle("", mnsFault+"#components/schemas/NotifyNewAlarm", `{}`), path: v7, status: 400, msgID: svc2000, text: dataBad},
		{name: "stndDefined batch, second event invalid", body: `{"eventList":[` + stndEvent("a", nsFault, stndFields(mnsFault+"#components/schemas/NotifyNewAlarm", alarmData)) + `,` + stndEvent("b", nsFault, stndFields(mnsFault+"#components/schemas/NotifyNewAlarm", `{}`)) + `]}`, path: v7b, status: 400, msgID: svc2000, text: dataBad},

		// Batch and namespace checks.
		{name: "missing namespace", body: stndSingle("", "", `{}`), path: v7, status: 400, msgID: svc2006, text: "is missing from request"},
		{name: "empty namespace", body: stndSingle(`,"stndDefinedNamespace":""`, "", `{}`), path: v7, status: 400, msgID: svc2006, text: "is empty in request"},
		{name: "mixed domains", body: `{"eventList":[{"commonEventHeader":` + header7("a", "fault", "") + `},{"commonEventHeader":` + header7("b", "heartbeat", "") + `}]}`, path: v7b, status: 400, msgID: svc0001, text: "Different value of domain fields"},
		{name: "mixed domains before a missing namespace", body: `{"eventList":[{"commonEventHeader":` + header7("a", "fault", "") + `},` + stndEvent("b", "", stndFields("", `{}`)) + `]}`, path: v7b, status: 400, msgID: svc0001, text: "Different value of domain fields"},
		{name: "mixed namespaces", body: `{"eventList":[` + stndEvent("a", nsFault, stndFields("", `{}`)) + `,` + stndEvent("b", `,"stndDefinedNamespace":"3GPP-Heartbeat"`, stndFields("", `{}`)) + `]}`, path: v7b, status: 400, msgID: svc0001, text: "have to be same"},
		{name: "empty and set namespaces", body: `{"eventList":[` + stndEvent("a", `,"stndDefinedNamespace":""`, stndFields("", `{}`)) + `,` + stndEvent("b", nsFault, stndFields("", `{}`)) + `]}`, path: v7b, status: 400, msgID: svc0001, text: "have to be same"},

		// JSON syntax as org.json 20220320 reads it.
		{name: "trailing garbage", body: fault7 + "xyz", path: v7, status: 202},
		{name: "extra closing brace", body: fault7 + "}", path: v7, status: 202},
		{name: "second object after the first", body: fault7 + `{"a":`, path: v7, status: 202},
		{name: "trailing commas", body: strings.Replace(fault7, `"Active"}}}`, `"Active",},},}`, 1), path: v7, status: 202},
		{name: "semicolons between members", body: strings.ReplaceAll(fault7, `","`, `";"`), path: v7, status: 202},
		{name: "single-quoted strings", body: strings.ReplaceAll(fault7, `"`, `'`), path: v7, status: 202},
		{name: "unquoted keys", body: strings.Replace(strings.Replace(fault7, `"event"`, `event`, 1), `"faultFields"`, `faultFields`, 1), path: v7, status: 202},
		{name: "bare word value", body: strings.Replace(fault7, `"High"`, `High`, 1), path: v7, status: 202},
		{name: "bare number where a string is wanted", body: strings.Replace(fault7, `"4.1"`, `4.1`, 1), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "bare TRUE as a key value", body: strings.Replace(fault7, `"faultFields":{`, `"faultFields":{"x":TRUE,`, 1), path: v7, status: 400, msgID: svc0002, text: badSchema},
		{name: "truncated", body: fault7[:len(fault7)-3], path: v7, status: 500, msgID: "spring", text: "Internal Server Error"},
		{name: "bad escape", body: strings.Replace(fault7, `"src"`, `"s\xrc"`, 1), path: v7, status: 500, msgID: "spring"},
		{name: "short unicode escape", body: `{"event":{"x":"\u12"}}`, path: v7, status: 500, msgID: "spring"},
		{name: "line break in a string", body: strings.Replace(fault7, `"src"`, "\"s\nrc\"", 1), path: v7, status: 500, msgID: "spring"},
		{name: "top-level array", body: "[" + fault7 + "]", path: v7, status: 500, msgID: "spring"},
		{name: "duplicate keys", body: strings.Replace(fault7, `"sequence":1`, `"sequence":1,"sequence":1`, 1), path: v7, status: 500, msgID: "spring"},
		{name: "missing value", body: `{"event":}`, path: v7, status: 500, msgID: "spring"},
		{name: "not JSON at all", body: `hello`, path: v7, status: 500, msgID: "spring"},
		{name: "no body", body: ``, path: v7, status: 400, msgID: "spring", text: "Bad Request"},
	}
}

// TestCollectorAnswers posts every case to an emulator reading the
// collector's schemas from the shared folder and expects the collector's
// answer.
func TestCollectorAnswers(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "ves")
	s := startServer(t, Options{SchemaDir: dir})
	for _, tc := range collectorCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := tc.body
			if tc.file != "" {
				b, err := os.ReadFile(filepath.Join(dir, "samples", tc.file))
				if err != nil {
					t.Fatalf("read sample: %v", err)
				}
				body = string(b)
			}
			// Content-Type set even without a body, which "no body" needs.
			r := do(t, testClient(), "POST", s.URL()+tc.path, body, map[string]string{"Content-Type": "application/json"})
			checkAnswer(t, r, tc)
		})
	}
}

func checkAnswer(t *testing.T, r response, tc answerCase) {
	t.Helper()
	if r.status != tc.status {
		t.Fatalf("status = %d, want %d (%s)", r.status, tc.status, r.body)
	}
	switch tc.msgID {
	case "":
	case "spring":
		if !strings.Contains(r.body, `"timestamp":`) || !strings.Contains(r.body, `"path":"`+tc.path+`"`) {
			t.Errorf("body %q is not Spring's error page", r.body)
		}
	default:
		if got := messageID(r.body); got != tc.msgID {
			t.Errorf("message %q, want %q (%s)", got, tc.msgID, r.body)
		}
	}
	if !strings.Contains(r.body, tc.text) {
		t.Errorf("body %q does not contain %q", r.body, tc.text)
	}
}

// TestStrictJSON checks the strict mode: what org.json would accept or
// throw on is refused with 400 SVC0002, as strict JSON parsers answer.
func TestStrictJSON(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{SchemaDir: shareddata.Dir(t, "ves"), StrictJSON: true})
	fault7 := event7("f")
	for _, tc := range []answerCase{
		{name: "valid", body: fault7, path: v7, status: 202},
		{name: "trailing garbage", body: fault7 + "xyz", path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		{name: "unquoted key", body: strings.Replace(fault7, `"event"`, `event`, 1), path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		{name: "truncated", body: fault7[:len(fault7)-1], path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		{name: "duplicate keys", body: strings.Replace(fault7, `"sequence":1`, `"sequence":1,"sequence":1`, 1), path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		{name: "top-level array", body: "[" + fault7 + "]", path: v7, status: 400, msgID: svc0002, text: "Incorrect JSON payload"},
		{name: "schema still checked", body: strings.Replace(fault7, `"4.1"`, `"4.2"`, 1), path: v7, status: 400, msgID: svc0002, text: badSchema},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkAnswer(t, post(t, s, tc.path, tc.body), tc)
		})
	}
}

// TestWithoutSchemaDir checks the emulator without the collector's
// schema files: it says so on start and falls back to its built-in header
// rules, while parsing and routing stay as the collector's.
func TestWithoutSchemaDir(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "missing")} {
		var logged []string
		s := startServer(t, Options{SchemaDir: dir, Logf: func(format string, args ...any) {
			logged = append(logged, format)
			for _, a := range args {
				logged = append(logged, a.(string))
			}
		}})
		if !strings.Contains(strings.Join(logged, " "), "built-in rules only") {
			t.Errorf("dir %q: start logged %q, want the fallback said", dir, logged)
		}
		fault7 := event7("f")
		for _, tc := range []answerCase{
			{name: "valid", body: fault7, path: v7, status: 202},
			{name: "header rule", body: strings.Replace(fault7, `"4.1"`, `"4.2"`, 1), path: v7, status: 400, msgID: svc0002, text: badSchema},
			{name: "no full schema: fault fields unchecked", body: strings.Replace(fault7, `"vfStatus":"Active"`, `"vfStatus":"Sleepy"`, 1), path: v7, status: 202},
			{name: "lenient parsing", body: fault7 + "}", path: v7, status: 202},
			{name: "org.json throws", body: fault7[:len(fault7)-1], path: v7, status: 500, msgID: "spring"},
			{name: "routing", body: strings.Replace(fault7, `"fault"`, `"perf3gpp"`, 1), path: v7, status: 400, msgID: svc2000, text: noStream},
			{name: "stndDefined data unchecked", body: stndSingle(nsFault, mnsFault+"#components/schemas/NotifyNewAlarm", `{}`), path: v7, status: 202},
		} {
			checkAnswer(t, post(t, s, tc.path, tc.body), tc)
		}
	}
}

// TestSchemaDirErrors checks that a schema directory without the
// collector's files stops the emulator from starting, as it stops the
// collector, with a line naming the file.
func TestSchemaDirErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	_, err := Start(Options{SchemaDir: empty})
	if err == nil || !strings.Contains(err.Error(), "CommonEventFormat_27.2.json") {
		t.Fatalf("start with an empty schema dir: %v, want an error naming the 27.2 schema", err)
	}
	if _, err := Start(Options{Streams: "fault"}); err == nil || !strings.Contains(err.Error(), "DOMAIN=STREAM") {
		t.Errorf("start with streams %q: %v, want an error", "fault", err)
	}
}

// TestDefaultStreams checks that DefaultStreams is the deployed
// configuration's collector.dmaap.streamid.
func TestDefaultStreams(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(shareddata.Dir(t, "ves"), "collector-config", "etc_ves_application_config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "collector.dmaap.streamid: "); ok {
			if got := strings.TrimSpace(v); got != DefaultStreams {
				t.Fatalf("deployed streamid %q\nDefaultStreams   %q", got, DefaultStreams)
			}
			return
		}
	}
	t.Fatal("no collector.dmaap.streamid in the deployed configuration")
}

// TestSchemaMapSkipsMissingFiles checks that a schema-map entry whose
// local file is missing does not count, as in the collector: references
// to it get SVC2004.
func TestSchemaMapSkipsMissingFiles(t *testing.T) {
	t.Parallel()
	shared := shareddata.Dir(t, "ves")
	dir := t.TempDir()
	for _, f := range schemaFiles {
		if err := os.Symlink(filepath.Join(shared, f.file), filepath.Join(dir, f.file)); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(dir, externalRepoDir)
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	schemaMap := `[{"publicURL":"` + mnsFault + `","localURL":"missing/faultMnS.yaml"}]`
	if err := os.WriteFile(filepath.Join(repo, schemaMapFile), []byte(schemaMap), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{SchemaDir: dir})
	tc := answerCase{body: stndSingle(nsFault, mnsFault+"#components/schemas/NotifyNewAlarm", alarmData), path: v7, status: 400, msgID: svc2004, text: notInRepo}
	checkAnswer(t, post(t, s, tc.path, tc.body), tc)
}
