package testserver

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// header7 returns a valid v7 commonEventHeader with the given eventId and
// domain, plus any extra members (already JSON, with a leading comma).
func header7(id, domain, extra string) string {
	return fmt.Sprintf(`{"domain":%q,"eventId":%q,"eventName":"Fault_test","sequence":1,`+
		`"priority":"High","reportingEntityName":"re","sourceName":"src",`+
		`"startEpochMicrosec":1700000000000000,"lastEpochMicrosec":1700000000000000,`+
		`"version":"4.1","vesEventListenerVersion":"7.2"%s}`, domain, id, extra)
}

// event7 is a valid v7 single-event body (valid against the whole
// CommonEventFormat 30.2.1 schema, not only its header).
func event7(id string) string {
	return `{"event":{"commonEventHeader":` + header7(id, "fault", "") + `,"faultFields":{"faultFieldsVersion":"4.0",` +
		`"alarmCondition":"c","eventSeverity":"CRITICAL","eventSourceType":"other","specificProblem":"p","vfStatus":"Active"}}}`
}

// batch7 is a valid v7 batch body with one event per id.
func batch7(domain string, ids ...string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = `{"commonEventHeader":` + header7(id, domain, "") + `}`
	}
	return `{"eventList":[` + strings.Join(parts, ",") + `]}`
}

// event5 is a valid v5 (CommonEventFormat 28.4.1) single-event body.
func event5(id string) string {
	return fmt.Sprintf(`{"event":{"commonEventHeader":{"domain":"fault","eventId":%q,"eventName":"f",`+
		`"sequence":0,"priority":"Normal","reportingEntityName":"re","sourceName":"src",`+
		`"startEpochMicrosec":1,"lastEpochMicrosec":2,"version":3.0}}}`, id)
}

// startServer starts an emulator for one test and closes it at the end.
func startServer(t *testing.T, opts Options) *Server {
	t.Helper()
	return startWithHooks(t, opts, hooks{})
}

func startWithHooks(t *testing.T, opts Options, h hooks) *Server {
	t.Helper()
	s, err := start(opts, h)
	if err != nil {
		t.Fatalf("start emulator: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close emulator: %v", err)
		}
	})
	return s
}

// response is what a test looks at in an answer.
type response struct {
	status      int
	body        string
	contentType string
	header      http.Header
}

// testClient returns an HTTP client with a bound timeout for tests.
func testClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second}
}

// do sends one request and reads the whole answer.
func do(t *testing.T, c *http.Client, method, url, body string, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatalf("build request: %v", err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header[k] = []string{v} // as spelled: the collector reads some headers by exact name
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body of %s %s: %v", method, url, err)
	}
	return response{resp.StatusCode, string(b), resp.Header.Get("Content-Type"), resp.Header}
}

// post sends a JSON body to a path of s.
func post(t *testing.T, s *Server, path, body string) response {
	t.Helper()
	return do(t, testClient(), http.MethodPost, s.URL()+path, body, nil)
}
