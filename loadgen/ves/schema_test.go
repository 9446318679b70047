package ves

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vesload/vesload/internal/shareddata"
)

// vesSchema compiles the collector's v7 schema from the shared folder. It is
// draft-04 (declared by its $schema), and formats (ipv4, ipv6, uri) are
// asserted as the collector does.
func vesSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(shareddata.Dir(t, "ves"), "CommonEventFormat_30.2.1_ONAP.json")
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	sch, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compile %s: %v", path, err)
	}
	return sch
}

func validateBody(sch *jsonschema.Schema, body []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("parse body: %w", err)
	}
	return sch.Validate(inst)
}

func TestEventsValidateAgainstSchema(t *testing.T) {
	t.Parallel()
	sch := vesSchema(t)
	due := time.Date(2024, 5, 17, 9, 30, 0, 123456789, time.UTC)
	for _, domain := range Domains() {
		for _, batch := range []int{0, 3} {
			for _, size := range []int{0, 8192} {
				name := fmt.Sprintf("%s/batch=%d/size=%d", domain, batch, size)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					e, err := NewEvent(domain, EventOptions{Batch: batch, Size: size})
					if err != nil {
						t.Fatal(err)
					}
					for _, seq := range []uint64{0, 1, 999_999, 1 << 40} {
						body := e.AppendBody(nil, seq, due)
						if err := validateBody(sch, body); err != nil {
							t.Fatalf("seq %d: %v\n%s", seq, err, body)
						}
						if size > 0 && len(body) != size {
							t.Errorf("seq %d: body is %d bytes, want %d", seq, len(body), size)
						}
					}
				})
			}
		}
	}
}

// TestSchemaRejectsBrokenEvent makes sure the validator above is live: an
// event whose header version is outside the schema's enum must fail.
func TestSchemaRejectsBrokenEvent(t *testing.T) {
	t.Parallel()
	sch := vesSchema(t)
	e, err := NewEvent("fault", EventOptions{})
	if err != nil {
		t.Fatal(err)
	}
	body := e.AppendBody(nil, 1, time.Now())
	broken := bytes.Replace(body, []byte(`"version":"4.1"`), []byte(`"version":"9.9"`), 1)
	if bytes.Equal(body, broken) {
		t.Fatal("test setup: version field not found in body")
	}
	if err := validateBody(sch, broken); err == nil {
		t.Fatal("schema accepted an event with version 9.9")
	}
}

func TestJMeterFaultTemplateValidates(t *testing.T) {
	t.Parallel()
	sch := vesSchema(t)
	plan := filepath.Join(shareddata.Dir(t, "jmeter"), "simple_test_scenario.jmx")
	src := jmxBody(t, plan)
	if !bytes.Contains(src, []byte("${__time()}")) {
		t.Fatalf("%s: body has no ${__time()}; test assumptions no longer hold", plan)
	}
	tpl, err := CompileTemplate(src, TemplateOptions{RunID: "jmx"})
	if err != nil {
		t.Fatalf("compile %s body: %v", plan, err)
	}
	if tpl.IsBatch() {
		t.Error("single fault event reported as batch")
	}
	due := time.Date(2024, 5, 17, 9, 30, 0, 0, time.UTC)
	body := tpl.AppendBody(nil, 5, due)
	if err := validateBody(sch, body); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	// JMeter's __time() is milliseconds, even in a microsecond field.
	want := fmt.Sprintf(`"startEpochMicrosec": %d,`, due.UnixMilli())
	if !bytes.Contains(body, []byte(want)) {
		t.Errorf("body lacks %s:\n%s", want, body)
	}
}

func TestNativeBatchTemplateValidates(t *testing.T) {
	t.Parallel()
	sch := vesSchema(t)
	event := func(i int) string {
		return fmt.Sprintf(`{"commonEventHeader":{"domain":"heartbeat","eventId":"{{.EventID}}-%d","eventName":"Heartbeat_t",
"lastEpochMicrosec":{{.EpochMicros}},"priority":"Normal","reportingEntityName":"${ENTITY}","sequence":{{.Seq}},
"sourceName":"src-${__threadNum}","startEpochMicrosec":{{.EpochMicros}},"version":"4.1","vesEventListenerVersion":"7.2.1",
"sourceId":"{{.UUID}}"},"heartbeatFields":{"heartbeatFieldsVersion":"3.0","heartbeatInterval":{{.Random 1 60}}}}`, i)
	}
	src := `{"eventList":[` + event(1) + ",\n" + event(2) + `]}`
	tpl, err := CompileTemplate([]byte(src), TemplateOptions{Vars: map[string]string{"ENTITY": "ems-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !tpl.IsBatch() {
		t.Error("eventList template not reported as batch")
	}
	for seq := uint64(0); seq < 20; seq++ {
		if err := validateBody(sch, tpl.AppendBody(nil, seq, time.Now())); err != nil {
			t.Fatalf("seq %d: %v", seq, err)
		}
	}
}

// jmxBody returns the raw HTTP body of the first sampler of a JMeter plan:
// the first Argument.value that holds a JSON object.
func jmxBody(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			t.Fatalf("%s: no JSON body found", path)
		}
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok || start.Name.Local != "stringProp" || attr(start, "name") != "Argument.value" {
			continue
		}
		var value string
		if err := dec.DecodeElement(&value, &start); err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		if strings.HasPrefix(strings.TrimSpace(value), "{") {
			return []byte(value)
		}
	}
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
