package testserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// collectorError is the collector's error body, decoded.
type collectorError struct {
	RequestError map[string]struct {
		MessageID string   `json:"messageId"`
		Text      string   `json:"text"`
		Variables []string `json:"variables"`
	} `json:"requestError"`
}

// messageID returns "<ExceptionKind> <messageId>" of an error body, or
// the empty string when the body is not one.
func messageID(body string) string {
	var e collectorError
	if json.Unmarshal([]byte(body), &e) != nil || len(e.RequestError) != 1 {
		return ""
	}
	for kind, ex := range e.RequestError {
		return kind + " " + ex.MessageID
	}
	return ""
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	c := testClient()
	jsonHeader := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name        string
		method      string
		path        string
		body        string
		header      map[string]string
		status      int
		messageID   string
		bodyHas     string
		contentType string
	}{
		{name: "v7 event", method: "POST", path: "/eventListener/v7", body: event7("r1"), status: 202, bodyHas: successBody, contentType: contentJSON},
		{name: "v7 batch", method: "POST", path: "/eventListener/v7/eventBatch", body: batch7("fault", "r2", "r3"), status: 202, bodyHas: successBody},
		{name: "v5 event", method: "POST", path: "/eventListener/v5", body: event5("r4"), status: 202},
		{name: "v3 event", method: "POST", path: "/eventListener/v3", body: event5("r5"), status: 202},
		{name: "charset in content type", method: "POST", path: "/eventListener/v7", body: event7("r6"), header: map[string]string{"Content-Type": "application/json; charset=UTF-8"}, status: 202},
		{name: "healthcheck", method: "GET", path: "/healthcheck", status: 200, bodyHas: healthBody, contentType: contentText},
		{name: "root", method: "GET", path: "/", status: 200, bodyHas: welcomeBody},
		{name: "no event", method: "POST", path: "/eventListener/v7", body: `{"evnt":{}}`, status: 400, messageID: "ServiceException SVC0002", bodyHas: "Incorrect JSON payload", contentType: contentText},
		{name: "truncated JSON", method: "POST", path: "/eventListener/v7", body: `{"event":`, status: 500, bodyHas: `"error":"Internal Server Error","path":"/eventListener/v7"`, contentType: contentJSON},
		{name: "JSON error when accepted", method: "POST", path: "/eventListener/v7", body: `{}`, header: map[string]string{"Accept": "application/json"}, status: 400, messageID: "ServiceException SVC0002", contentType: contentJSON},
		{name: "missing event", method: "POST", path: "/eventListener/v7", body: `{"foo":{}}`, status: 400, messageID: "ServiceException SVC0002", bodyHas: "Incorrect JSON payload"},
		{name: "schema failure", method: "POST", path: "/eventListener/v7", body: strings.Replace(event7("x"), `"priority":"High",`, "", 1), status: 400, messageID: "ServiceException SVC0002", bodyHas: "does not conform to schema"},
		{name: "mixed domains", method: "POST", path: "/eventListener/v7/eventBatch", body: `{"eventList":[{"commonEventHeader":` + header7("m1", "fault", "") + `},{"commonEventHeader":` + header7("m2", "heartbeat", "") + `}]}`, status: 400, messageID: "ServiceException SVC0001"},
		{name: "stndDefined without namespace", method: "POST", path: "/eventListener/v7", body: `{"event":{"commonEventHeader":` + header7("n1", "stndDefined", "") + `}}`, status: 400, messageID: "ServiceException SVC2006"},
		{name: "unsupported version", method: "POST", path: "/eventListener/v6", body: event7("u"), status: 400, bodyHas: "API version v6 is not supported", contentType: contentJSON},
		{name: "unsupported version batch", method: "POST", path: "/eventListener/v8/eventBatch", body: batch7("fault", "u"), status: 400, bodyHas: "API version v8 is not supported"},
		{name: "wrong path", method: "POST", path: "/eventListener/v7/events", body: event7("w"), status: 404, bodyHas: `"status":404`},
		{name: "no version", method: "POST", path: "/eventListener/", body: event7("w"), status: 404},
		{name: "unknown page", method: "GET", path: "/nope", status: 404, bodyHas: `"path":"/nope"`},
		{name: "GET on event route", method: "GET", path: "/eventListener/v7", status: 405, bodyHas: "Method Not Allowed"},
		{name: "PUT on batch route", method: "PUT", path: "/eventListener/v7/eventBatch", body: batch7("fault", "p"), status: 405},
		{name: "POST on healthcheck", method: "POST", path: "/healthcheck", body: "{}", status: 405},
		{name: "form content type", method: "POST", path: "/eventListener/v7", body: event7("f"), header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 415},
		{name: "no content type", method: "POST", path: "/eventListener/v7", body: event7("f"), header: map[string]string{"Content-Type": ""}, status: 415},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := jsonHeader
			if tc.header != nil {
				h = tc.header
			}
			r := do(t, c, tc.method, s.URL()+tc.path, tc.body, h)
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (body %q)", r.status, tc.status, r.body)
			}
			if tc.messageID != "" && messageID(r.body) != tc.messageID {
				t.Errorf("message = %q, want %q (body %q)", messageID(r.body), tc.messageID, r.body)
			}
			if !strings.Contains(r.body, tc.bodyHas) {
				t.Errorf("body %q does not contain %q", r.body, tc.bodyHas)
			}
			if tc.contentType != "" && r.contentType != tc.contentType {
				t.Errorf("content type = %q, want %q", r.contentType, tc.contentType)
			}
			if tc.status == 405 && r.header.Get("Allow") == "" {
				t.Error("405 without an Allow header")
			}
		})
	}
}

func TestStatsCountRequests(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	post(t, s, "/eventListener/v7", event7("s1"))
	post(t, s, "/eventListener/v7/eventBatch", batch7("fault", "s2", "s3", "s1"))
	post(t, s, "/eventListener/v7", `{"evnt":1}`)
	do(t, testClient(), "GET", s.URL()+"/healthcheck", "", nil)
	do(t, testClient(), "GET", s.URL()+"/stats", "", nil) // not counted

	st := s.Stats()
	want := Stats{Requests: 4, EventRequests: 3, Accepted: 2, Rejected: 1, Invalid: 1, Events: 4,
		AcceptedEvents: 4, DuplicateEventIDs: 1, MaxInFlight: st.MaxInFlight,
		ByStatus: map[int]int64{200: 1, 202: 2, 400: 1}}
	if !statsEqual(st, want) {
		t.Fatalf("stats = %+v\nwant    %+v", st, want)
	}
	if st.MaxInFlight < 1 || st.InFlight != 0 {
		t.Errorf("in flight = %d, max %d; want 0 and at least 1", st.InFlight, st.MaxInFlight)
	}

	r := do(t, testClient(), "GET", s.URL()+"/stats", "", nil)
	var fromHTTP Stats
	if err := json.Unmarshal([]byte(r.body), &fromHTTP); err != nil {
		t.Fatalf("decode /stats %q: %v", r.body, err)
	}
	if !statsEqual(fromHTTP, want) {
		t.Errorf("/stats = %+v\nwant    %+v", fromHTTP, want)
	}
}

func statsEqual(a, b Stats) bool {
	if len(a.ByStatus) != len(b.ByStatus) {
		return false
	}
	for k, v := range a.ByStatus {
		if b.ByStatus[k] != v {
			return false
		}
	}
	a.ByStatus, b.ByStatus = nil, nil
	return reflect.DeepEqual(a, b)
}

func TestDuplicateEventIDs(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	for _, id := range []string{"a", "b", "a", "c", "a"} {
		if r := post(t, s, "/eventListener/v7", event7(id)); r.status != 202 {
			t.Fatalf("post %s: status %d", id, r.status)
		}
	}
	post(t, s, "/eventListener/v7", strings.Replace(event7("b"), `"High"`, `"x"`, 1)) // invalid: not counted
	if st := s.Stats(); st.DuplicateEventIDs != 2 || st.Events != 5 {
		t.Errorf("duplicates = %d, events = %d; want 2 and 5", st.DuplicateEventIDs, st.Events)
	}
}

func TestLegacyCompat(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{Compat: "None", ErrorRate: 1})
	r := post(t, s, "/eventListener/v7", event7("l1"))
	if r.status != 503 || messageID(r.body) != "ServiceException SVC2000" || !strings.Contains(r.body, `"503"`) {
		t.Fatalf("injected failure: %d %q; want 503 SVC2000 with variable 503", r.status, r.body)
	}
	s2 := startServer(t, Options{Compat: CompatLegacy})
	if r := post(t, s2, "/eventListener/v7", event7("l2")); r.status != 200 || r.body != successBody {
		t.Fatalf("success: %d %q; want 200 %q", r.status, r.body, successBody)
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{Auth: "sample1:sample1"})
	basic := func(userpass string) map[string]string {
		return map[string]string{"Content-Type": "application/json",
			"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(userpass))}
	}
	tests := []struct {
		name   string
		path   string
		header map[string]string
		status int
	}{
		{"right credentials", "/eventListener/v7", basic("sample1:sample1"), 202},
		{"lower-case scheme", "/eventListener/v7", map[string]string{"Content-Type": "application/json", "Authorization": "basic c2FtcGxlMTpzYW1wbGUx"}, 202},
		{"no credentials", "/eventListener/v7", map[string]string{"Content-Type": "application/json"}, 401},
		{"wrong password", "/eventListener/v7", basic("sample1:nope"), 401},
		{"wrong user", "/eventListener/v7", basic("sample2:sample1"), 401},
		{"no colon", "/eventListener/v7", basic("sample1sample1"), 401},
		{"bearer", "/eventListener/v7", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer abc"}, 401},
		{"bad base64", "/eventListener/v7", map[string]string{"Content-Type": "application/json", "Authorization": "Basic !!!"}, 401},
		{"healthcheck needs auth", "/healthcheck", nil, 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			method, body := "POST", event7("auth-"+tc.name)
			if tc.path == "/healthcheck" {
				method, body = "GET", ""
			}
			r := do(t, testClient(), method, s.URL()+tc.path, body, tc.header)
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (%q)", r.status, tc.status, r.body)
			}
			if tc.status == 401 && messageID(r.body) != "PolicyException POL2000" {
				t.Errorf("401 body %q, want PolicyException POL2000", r.body)
			}
		})
	}
	// The emulator's own pages stay open.
	if r := do(t, testClient(), "GET", s.URL()+"/stats", "", nil); r.status != 200 {
		t.Errorf("/stats with auth on: %d, want 200", r.status)
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{MaxBodyBytes: 1024})
	body := `{"event":{"commonEventHeader":{},"pad":"` + strings.Repeat("x", 2048) + `"}}`
	r := post(t, s, "/eventListener/v7", body)
	if r.status != 413 || messageID(r.body) != "ServiceException SVC2000" {
		t.Fatalf("got %d %q, want 413 SVC2000", r.status, r.body)
	}
	if st := s.Stats(); st.ByStatus[413] != 1 || st.Rejected != 1 {
		t.Errorf("stats %+v: want one 413 counted as rejected", st)
	}
}

// TestBackendOverHTTP drives the backend model through the server: pool
// 2, queue 1, five concurrent requests while the publishes are held. Two
// publish, one waits, two fail at once; when the held publishes finish
// the waiter publishes too: 3 accepted (202), 2 rejected (500 SVC2000).
func TestBackendOverHTTP(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := startWithHooks(t, Options{PublishTime: time.Hour, BackendPool: 2, BackendQueue: 1},
		hooks{publish: func(quit <-chan struct{}) {
			select {
			case <-release:
			case <-quit:
			}
		}})
	var wg sync.WaitGroup
	codes := make(chan int, 5)
	for i := range 5 {
		wg.Go(func() {
			codes <- post(t, s, "/eventListener/v7", event7(fmt.Sprint("b", i))).status
		})
	}
	waitFor(t, "2 rejections", func() bool { return s.Stats().BackendRejected == 2 })
	st := s.Stats()
	if st.BackendInUse != 2 || st.BackendWaiting != 1 || st.InFlight != 3 {
		t.Fatalf("while held: %d in use, %d waiting, %d in flight; want 2, 1, 3",
			st.BackendInUse, st.BackendWaiting, st.InFlight)
	}
	close(release)
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[202] != 3 || count[500] != 2 {
		t.Fatalf("status counts %v, want 3×202 and 2×500", count)
	}
	if st := s.Stats(); st.Accepted != 3 || st.Rejected != 2 || st.BackendRejected != 2 || st.BackendInUse != 0 {
		t.Errorf("final stats %+v", st)
	}
}

// TestBackendQueueFullLegacy checks the legacy answer to a full queue:
// 503 carrying the downstream 429.
func TestBackendQueueFullLegacy(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := startWithHooks(t, Options{Compat: CompatLegacy, PublishTime: time.Hour, BackendPool: 1, BackendQueue: -1},
		hooks{publish: func(quit <-chan struct{}) {
			select {
			case <-release:
			case <-quit:
			}
		}})
	first := make(chan int, 1)
	go func() { first <- post(t, s, "/eventListener/v7", event7("q1")).status }()
	waitFor(t, "one publish", func() bool { return s.Stats().BackendInUse == 1 })
	r := post(t, s, "/eventListener/v7", event7("q2"))
	if r.status != 503 || !strings.Contains(r.body, `"429"`) {
		t.Errorf("queue full: %d %q; want 503 with variable 429", r.status, r.body)
	}
	close(release)
	if c := <-first; c != 200 {
		t.Errorf("held request: %d, want 200", c)
	}
}

func TestPublishTimeHoldsConnection(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{PublishTime: 20 * time.Millisecond, BackendPool: 1})
	start := time.Now()
	if r := post(t, s, "/eventListener/v7", event7("pt")); r.status != 202 {
		t.Fatalf("status %d", r.status)
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Errorf("answered after %v, before the publish time of 20ms", el)
	}
}

func TestErrorRate(t *testing.T) {
	t.Parallel()
	const n = 400
	count := func(seed uint64) []int {
		s := startServer(t, Options{ErrorRate: 0.25, Seed: seed})
		var codes []int
		for i := range n {
			codes = append(codes, post(t, s, "/eventListener/v7", event7(fmt.Sprint("e", i))).status)
		}
		if st := s.Stats(); st.InjectedErrors != int64(countOf(codes, 500)) {
			t.Errorf("injected %d, but %d answers were 500", st.InjectedErrors, countOf(codes, 500))
		}
		return codes
	}
	a, b := count(42), count(42)
	failed := countOf(a, 500)
	// Binomial(400, 0.25): mean 100, sd ≈ 8.7; ±40 is over 4.5 sd.
	if failed < 60 || failed > 140 {
		t.Errorf("%d of %d failed, want about 100", failed, n)
	}
	if countOf(a, 202)+failed != n {
		t.Errorf("unexpected statuses in %v", a)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different answer to request %d: %d vs %d", i, a[i], b[i])
		}
	}
}

func countOf(codes []int, code int) int {
	n := 0
	for _, c := range codes {
		if c == code {
			n++
		}
	}
	return n
}

func TestResponseDelay(t *testing.T) {
	t.Parallel()
	s := newServer(settings{Options: Options{Latency: 100 * time.Millisecond, Jitter: 50 * time.Millisecond,
		Stall: 2 * time.Second, StallAt: 10 * time.Second, Seed: 7}}, hooks{})
	s.started = time.Unix(1000, 0)
	for i := range 200 {
		d := s.responseDelay(s.started.Add(time.Duration(i) * time.Millisecond))
		if d < 50*time.Millisecond || d > 150*time.Millisecond {
			t.Fatalf("delay %v outside latency±jitter", d)
		}
	}
	tests := []struct {
		at   time.Duration
		want time.Duration // exact when the stall decides
	}{
		{at: 9950 * time.Millisecond},                 // may or may not land in the stall
		{at: 10 * time.Second, want: 2 * time.Second}, // stall start
		{at: 11500 * time.Millisecond, want: 500 * time.Millisecond},
		{at: 12 * time.Second}, // after the stall: plain latency
	}
	for _, tc := range tests {
		d := s.responseDelay(s.started.Add(tc.at))
		switch {
		case tc.want > 0 && d != tc.want:
			t.Errorf("at %v: delay %v, want %v", tc.at, d, tc.want)
		case tc.want == 0 && (d < 50*time.Millisecond || d > 2050*time.Millisecond):
			t.Errorf("at %v: delay %v", tc.at, d)
		}
	}
	// Without latency the stall holds a response exactly to its end.
	s0 := newServer(settings{Options: Options{Stall: time.Second, StallAt: time.Second}}, hooks{})
	s0.started = time.Unix(1000, 0)
	if d := s0.responseDelay(s0.started.Add(1200 * time.Millisecond)); d != 800*time.Millisecond {
		t.Errorf("stall delay %v, want 800ms", d)
	}
	if d := s0.responseDelay(s0.started.Add(500 * time.Millisecond)); d != 0 {
		t.Errorf("delay before the stall %v, want 0", d)
	}
}

// TestStallOverHTTP checks that a stall holds event requests without
// holding the emulator's own /stats page. (TestResponseDelay checks the
// stall's timing without a clock.)
func TestStallOverHTTP(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{Stall: time.Minute})
	done := make(chan int, 1)
	go func() {
		resp, err := testClient().Post(s.URL()+"/eventListener/v7", "application/json", strings.NewReader(event7("st")))
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	waitFor(t, "request in flight", func() bool { return s.Stats().InFlight == 1 })
	if r := do(t, testClient(), "GET", s.URL()+"/stats", "", nil); r.status != 200 {
		t.Fatalf("/stats during stall: %d", r.status)
	}
	select {
	case code := <-done:
		t.Fatalf("event request answered (%d) during the stall", code)
	default:
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 202 {
		t.Errorf("stalled request answered %d after close, want 202", code)
	}
}

func TestCloseCutsWaits(t *testing.T) {
	t.Parallel()
	s, err := Start(Options{Latency: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		resp, err := testClient().Post(s.URL()+"/eventListener/v7", "application/json", strings.NewReader(event7("c")))
		if err == nil {
			resp.Body.Close()
		}
		got <- err
	}()
	waitFor(t, "request in flight", func() bool { return s.Stats().InFlight == 1 })
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := <-got; err != nil {
		t.Errorf("request cut by close: %v (want an answer)", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"bad compat", Options{Compat: "v8"}, "compat"},
		{"auth without colon", Options{Auth: "user"}, "USER:PASS"},
		{"cert without key", Options{TLSCertFile: "c.pem"}, "both"},
		{"missing cert file", Options{TLSCertFile: "/nonexistent/c.pem", TLSKeyFile: "/nonexistent/k.pem"}, "load TLS"},
		{"error rate above 1", Options{ErrorRate: 1.5}, "error rate"},
		{"negative latency", Options{Latency: -1}, "latency"},
		{"bad address", Options{Addr: "127.0.0.1:notaport"}, "listen"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := Start(tc.opts)
			if err == nil {
				s.Close()
				t.Fatal("Start succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestURL(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || strings.HasSuffix(s.URL(), ":0") {
		t.Errorf("URL %q", s.URL())
	}
	if r := do(t, testClient(), http.MethodGet, s.URL()+"/healthcheck", "", nil); r.status != 200 {
		t.Errorf("healthcheck via URL(): %d", r.status)
	}
}

// FuzzAuthorized feeds arbitrary Authorization headers to the basic auth
// check: it must not panic, and it may only accept a header that decodes
// to exactly the configured USER:PASS.
func FuzzAuthorized(f *testing.F) {
	for _, h := range []string{"Basic c2FtcGxlMTpzYW1wbGUx", "basic c2FtcGxlMTpzYW1wbGUx", "Basic ", "Basic !!",
		"Bearer x", "", "Basic " + strings.Repeat("QUFB", 100), "Basic c2FtcGxlMTpzYW1wbGUx  "} {
		f.Add(h)
	}
	// Both checks: the direct comparison and the BCrypt one.
	var auths []authenticator
	for _, cost := range []int{0, 4} {
		st, err := Options{Auth: "sample1:sample1", AuthCost: cost}.normalise()
		if err != nil {
			f.Fatal(err)
		}
		a, err := newAuthenticator(st)
		if err != nil {
			f.Fatal(err)
		}
		auths = append(auths, a)
	}
	f.Fuzz(func(t *testing.T, h string) {
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.Set("Authorization", h)
		ok := auths[0].basic(ctx.Request.Header.Peek("Authorization"))
		if ok != auths[1].basic(ctx.Request.Header.Peek("Authorization")) {
			t.Fatalf("%q: the direct and the BCrypt checks disagree", h)
		}
		if !ok {
			return
		}
		got := ctx.Request.Header.Peek("Authorization")
		dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(got[len("basic "):])))
		if err != nil || string(dec) != "sample1:sample1" {
			t.Fatalf("accepted %q, which decodes to %q (%v)", h, dec, err)
		}
	})
}
