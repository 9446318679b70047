package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/nginxtest"
	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/loadgen/transport"
)

// A target that refuses every request is named in one line, with its
// likely cause, before the run: exit 3 within seconds of a run planned
// for a minute. The built-in emulator plays each wrong target.
func TestPreflightNamesTheCause(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certFile, keyFile, _ := testcert.Write(t)
	authFile, wrong := filepath.Join(dir, "auth"), filepath.Join(dir, "wrong")
	for p, s := range map[string]string{authFile: "u:right\n", wrong: "wrong\n"} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The subtests run once this function returned: Cleanup, not defer.
	plain, stopPlain := startServe(t)
	t.Cleanup(stopPlain)
	authed, stopAuthed := startServe(t, "--auth-file", authFile, "--auth-cost", "4")
	t.Cleanup(stopAuthed)
	tlsURL, stopTLS := startServe(t, "--tls-cert", certFile, "--tls-key", keyFile)
	t.Cleanup(stopTLS)
	tlsAddr := strings.TrimPrefix(tlsURL, "https://")
	plainAddr := strings.TrimPrefix(plain, "http://")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no listener path", []string{"-url", plain}, []string{"(http_405)", "the listener path is missing?", plainAddr + "/eventListener/v7"}},
		{"credentials refused", []string{"-url", authed + "/eventListener/v7", "--user", "u", "--password-file", wrong},
			[]string{"(http_401, POL2000)", "the collector refused the credentials"}},
		{"http:// to a TLS port", []string{"-url", "http://" + tlsAddr + "/eventListener/v7"}, []string{"may speak TLS: use https://"}},
		{"https:// to a plain port", []string{"-url", "https://" + plainAddr + "/eventListener/v7"}, []string{"does not speak TLS", "use http://"}},
		{"a certificate the CA does not sign", []string{"-url", tlsURL + "/eventListener/v7"}, []string{"unknown authority: give its CA with --cacert"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			o := vesload(t, 30*time.Second, append(tc.args, "-rps", "50", "-duration", "1m", "-q", "-o", out)...)
			if o.code != exitThreshold || strings.Count(strings.TrimSpace(o.stderr), "\n") != 0 || o.elapsed > 15*time.Second {
				t.Fatalf("exit %d after %v, stderr %q; want exit 3 at once and one line", o.code, o.elapsed, o.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(o.stderr, w) {
					t.Errorf("stderr %q lacks %q", o.stderr, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a result was written for a run that never started")
			}
		})
	}
}

// The preflight's request is named in the result, with the sequence that
// marks it (transport.PreflightSeq), and counted in none of its figures:
// the requests are those of the schedule alone.
func TestPreflightRequestNamedApart(t *testing.T) {
	t.Parallel()
	url, stop := startServe(t)
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "20", "-duration", "1s", "-q", "-o", out)
	if o.code != exitOK {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	res := readResult(t, out)
	p := res.Preflight
	if p == nil || p.Outcome != "ok" || p.Code != 202 || p.Seq != transport.PreflightSeq {
		t.Fatalf("preflight %+v, want ok 202 with seq %d", p, int64(transport.PreflightSeq))
	}
	if res.Requests.Scheduled != 20 || res.Requests.Sent != 20 || res.Requests.OK != 20 {
		t.Errorf("requests %+v, want 20 scheduled, sent and ok: the preflight is not one of them", res.Requests)
	}
	o = vesload(t, 30*time.Second, "-url", url+"/eventListener/v7", "-rps", "20", "-duration", "1s", "-q", "-o", out, "--no-preflight")
	if res := readResult(t, out); o.code != exitOK || res.Preflight != nil {
		t.Errorf("--no-preflight: exit %d, preflight %+v; want none", o.code, res.Preflight)
	}
}

// The start-of-run rule: when every one of the first requests (5 s, at
// least 20) fails with one class, the run stops there, names the cause
// and exits 3; --keep-going runs on, for tests that want every request
// to fail.
func TestStartOfRunRule(t *testing.T) {
	t.Parallel()
	plain, stop := startServe(t)
	defer stop()
	out := filepath.Join(t.TempDir(), "r.json")
	o := vesload(t, 60*time.Second, "-url", plain, "--no-preflight", "-rps", "10", "-duration", "1m", "-q", "-o", out)
	if o.code != exitThreshold || o.elapsed > 20*time.Second {
		t.Fatalf("exit %d after %v, want 3 within seconds: %s", o.code, o.elapsed, o.stderr)
	}
	if !strings.Contains(o.stderr, "stopping: every one of the first 50 requests failed with http_405: the listener path is missing?") {
		t.Errorf("stderr lacks the cause:\n%s", o.stderr)
	}
	res := readResult(t, out)
	if g := gate(res, "start of run: not every request fails with http_405 (first 5 s)"); g == nil || g.Pass {
		t.Errorf("thresholds %+v, want the start-of-run rule failing", res.Thresholds)
	}
	if res.Interrupted || res.Requests.NotSent == 0 {
		t.Errorf("interrupted %v, not sent %d: want a run stopped by its rule, the rest not sent", res.Interrupted, res.Requests.NotSent)
	}

	o = vesload(t, 60*time.Second, "-url", plain, "--no-preflight", "--keep-going", "-rps", "10", "-duration", "6s", "-q", "-o", out)
	res = readResult(t, out)
	if o.code != exitThreshold || res.Requests.Sent != 60 || gate(res, "start of run: not every request fails with http_405 (first 5 s)") != nil {
		t.Errorf("--keep-going: exit %d, sent %d, thresholds %+v; want the whole run, failed by ok>0 alone", o.code, res.Requests.Sent, res.Thresholds)
	}
}

// A run the start-of-run rule stopped is named so everywhere, never
// "completed": the summary's status, the result (stopped_at_start), the
// HTML page's banner, and the JUnit case "run completed", which fails.
func TestStartOfRunStopNamedEverywhere(t *testing.T) {
	t.Parallel()
	plain, stop := startServe(t)
	defer stop()
	dir := t.TempDir()
	out, junitOut, page := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.html")
	o := vesload(t, 60*time.Second, "-url", plain, "--no-preflight", "-rps", "10", "-duration", "15s", "-q",
		"-o", out, "--junit", junitOut, "--html", page)
	if o.code != exitThreshold {
		t.Fatalf("exit %d, want 3: %s", o.code, o.stderr)
	}
	const named = "stopped at the start by the start-of-run rule"
	if !strings.Contains(o.stdout, named) || strings.Contains(o.stdout, "of 15s, completed") {
		t.Errorf("the summary does not name the stop:\n%s", o.stdout)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		StoppedAtStart string `json:"stopped_at_start"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || !strings.Contains(doc.StoppedAtStart, "every one of the first 50 requests failed with http_405") {
		t.Errorf("result's stopped_at_start %q (%v), want the rule's cause", doc.StoppedAtStart, err)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), named) {
		t.Errorf("the HTML page does not name the stop (%v)", err)
	}
	b, err := os.ReadFile(junitOut)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &suites); err != nil || len(suites.Suites) == 0 || len(suites.Suites[0].Cases) == 0 {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	run := suites.Suites[0].Cases[0]
	if run.Name != "run completed" || run.Failure == nil || run.Failure.Type != "stopped_at_start" || !strings.Contains(run.Failure.Message, named) {
		t.Errorf("JUnit's first case %+v, want \"run completed\" failed by the start-of-run stop", run)
	}
}

// Real nginx, as a collector's front proxy answers a URL without the
// listener path (404): the preflight names the path, exit 3 at once.
func TestPreflightAgainstNginx(t *testing.T) {
	t.Parallel()
	base := nginxtest.Start(t)
	o := vesload(t, 30*time.Second, "-url", base, "-rps", "50", "-duration", "1m", "-q")
	if o.code != exitThreshold || o.elapsed > 15*time.Second ||
		!strings.Contains(o.stderr, "(http_404): the listener path is missing?") || !strings.Contains(o.stderr, base+"/eventListener/v7") {
		t.Fatalf("exit %d after %v, stderr %q; want exit 3 at once naming the listener path", o.code, o.elapsed, o.stderr)
	}
	if o := vesload(t, 30*time.Second, "-url", base+"/eventListener/v7", "-rps", "50", "-duration", "1s", "-q"); o.code != exitOK {
		t.Errorf("with the listener path: exit %d: %s", o.code, o.stderr)
	}
}
