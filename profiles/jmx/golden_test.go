package jmx

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
	"github.com/vesload/vesload/profiles"

	goldenfile "github.com/vesload/vesload/internal/golden"
)

// The golden files hold what the import makes of each shared plan, except
// the request bodies: those are the plans' own event documents, which stay
// in the shared folder and are never copied into the project. A body is
// replaced by its digest and size, plus the ${…} expressions it uses, so a
// change to the body translation still changes the golden file.

// expected is what each ONAP plan must import to, checked explicitly on
// top of the golden file: the load shape's exact totals, and the stages
// as request counts per step.
var expected = map[string]struct {
	total    int64
	duration time.Duration
	stages   []int64 // requests per stage, for staged plans
	warning  string  // a warning that must be given
}{
	"1_test_scenario_6_steps":            {28750, 15 * time.Minute, []int64{1000, 1750, 3500, 5000, 7500, 10000}, "BackendListener"},
	"2_test_scenario_1k_rps":             {1000, time.Second, nil, "ResultCollector"},
	"2_test_scenario_2k_rps":             {2000, time.Second, nil, "ResultCollector"},
	"2_test_scenario_3k_rps":             {3000, time.Second, nil, "ResultCollector"},
	"2_test_scenario_4k_rps":             {4000, time.Second, nil, "ResultCollector"},
	"2_test_scenario_5k_rps":             {5000, time.Second, nil, "ResultCollector"},
	"2_test_scenario_2k_rps_stndDefined": {2000, time.Second, nil, "body is not valid JSON: unexpected end of JSON input at body line 55, column 1 (plan line 89): 1 closing brace missing; it is imported as written, and a collector answers it with 500"},
	"2_test_scenario_3k_rps_stndDefined": {3000, time.Second, nil, "body is not valid JSON: unexpected end of JSON input"},
	"2_test_scenario_4k_rps_stndDefined": {4000, time.Second, nil, "body is not valid JSON: unexpected end of JSON input"},
	"2_test_scenario_5k_rps_stndDefined": {5000, time.Second, nil, "body is not valid JSON: unexpected end of JSON input"},
	"simple_test_scenario":               {10000, 5 * time.Minute, nil, "password not imported"},
	"test_scenario_jmeterVM_deleted":     {250, 10 * time.Second, nil, "password not imported"},
	"test_scenario_k8s_deleted":          {1000, time.Minute, nil, "password not imported"},
}

func TestImportSharedPlansGolden(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "jmeter")
	plans, err := filepath.Glob(filepath.Join(dir, "*.jmx"))
	if err != nil || len(plans) == 0 {
		t.Fatalf("no JMeter plans in %s: %v", dir, err)
	}
	seen := map[string]bool{}
	for _, path := range plans {
		name := strings.TrimSuffix(filepath.Base(path), ".jmx")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, ok := expected[name]
			if !ok {
				t.Fatalf("no expectation for plan %s: add one", name)
			}
			p, warns := importFile(t, path)
			checkRates(t, p, want.total, want.duration, want.stages)
			checkWarning(t, warns, want.warning)
			checkONAPTarget(t, p)
			out, err := Render(p, filepath.Base(path), warns)
			if err != nil {
				t.Fatal(err)
			}
			golden, err := Render(redactBodies(p), filepath.Base(path), warns)
			if err != nil {
				t.Fatal(err)
			}
			checkNoBodies(t, golden, p)
			goldenfile.Check(t, filepath.Join("testdata", name+".golden.yaml"), golden)
			back, err := profiles.Parse(out, name+".yaml")
			if err != nil {
				t.Fatalf("the rendered profile does not parse: %v", err)
			}
			back.Source = p.Source
			if !equalProfiles(p, back) {
				t.Errorf("rendered profile reads back differently:\n%+v\n%+v", p, back)
			}
		})
	}
	for name := range expected {
		if !seen[name] {
			t.Errorf("plan %s.jmx expected but not found in %s", name, dir)
		}
	}
}

func importFile(t *testing.T, path string) (*profiles.Profile, []Warning) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, warns, err := Import(f, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	return p, warns
}

func checkRates(t *testing.T, p *profiles.Profile, total int64, d time.Duration, stages []int64) {
	t.Helper()
	if got := p.Load.TotalRequests(); got != total {
		t.Errorf("schedules %d requests, want %d", got, total)
	}
	if got := p.Load.TotalDuration(); got != d {
		t.Errorf("lasts %v, want %v", got, d)
	}
	if stages == nil {
		if p.Load.Kind() != profiles.KindConstant {
			t.Errorf("load shape %q, want constant", p.Load.Kind())
		}
		return
	}
	if len(p.Load.Stages) != len(stages) {
		t.Fatalf("%d stages, want %d", len(p.Load.Stages), len(stages))
	}
	segs, _ := p.Load.Open()
	for i, want := range stages {
		if got := (profiles.Shape{Stages: p.Load.Stages[i : i+1]}).TotalRequests(); got != want {
			t.Errorf("stage %d schedules %d requests (segment %+v), want %d", i, got, segs[i], want)
		}
	}
}

func checkWarning(t *testing.T, warns []Warning, want string) {
	t.Helper()
	for _, w := range warns {
		if strings.Contains(w.String(), want) {
			return
		}
	}
	t.Errorf("no warning contains %q; got:\n%v", want, warns)
}

// checkONAPTarget checks what every ONAP plan shares: the collector URL
// with WORKER_IP as a variable, basic auth by reference, the JSON header.
func checkONAPTarget(t *testing.T, p *profiles.Profile) {
	t.Helper()
	if !strings.HasSuffix(p.Target.URL, ":30417/eventListener/v7") || !strings.HasPrefix(p.Target.URL, "https://") {
		t.Errorf("url = %q", p.Target.URL)
	}
	if a := p.Target.Auth; a == nil || a.User != "sample1" || a.PasswordEnv != "VESLOAD_PASSWORD" || a.PasswordFile != "" {
		t.Errorf("auth = %+v, want user sample1 with password_env VESLOAD_PASSWORD", a)
	}
	if p.Target.Headers["Content-Type"] != "application/json" || p.Target.Method != "POST" {
		t.Errorf("method %s headers %v", p.Target.Method, p.Target.Headers)
	}
	if len(p.Requests) != 1 || !strings.Contains(p.Requests[0].Body, `"commonEventHeader"`) {
		t.Errorf("requests = %+v, want one VES event body", p.Requests)
	}
	if strings.Contains(p.Requests[0].Body, "__time") && !strings.Contains(p.Requests[0].Body, `"startEpochMicrosec": ${__time()}`) {
		t.Errorf("JMeter's ${__time()} not kept in the body")
	}
	if strings.Contains(p.Target.URL, "WORKER_IP") {
		if missing := p.MissingVars(); len(missing) != 1 || missing[0] != "WORKER_IP" {
			t.Errorf("MissingVars = %v, want [WORKER_IP]", missing)
		}
		q := *p
		q.Vars = maps.Clone(p.Vars)
		if err := q.Set("WORKER_IP", "127.0.0.1"); err != nil {
			t.Fatal(err)
		}
		r, err := q.Resolve()
		if err != nil || r.Target.URL != "https://127.0.0.1:30417/eventListener/v7" {
			t.Errorf("resolved url %q, %v", r.Target.URL, err)
		}
	}
}

// redactBodies returns a copy of p whose inline bodies are replaced by a
// placeholder naming their SHA-256 digest (first 8 bytes), length and the
// distinct ${…} expressions they hold, in order of appearance.
func redactBodies(p *profiles.Profile) *profiles.Profile {
	q := *p
	q.Requests = append([]profiles.Request(nil), p.Requests...)
	for i := range q.Requests {
		r := &q.Requests[i]
		if r.Body == "" {
			continue
		}
		sum := sha256.Sum256([]byte(r.Body))
		ph := fmt.Sprintf("<sha256:%x, %d bytes", sum[:8], len(r.Body))
		if exprs := expressions(r.Body); len(exprs) > 0 {
			ph += "; uses " + strings.Join(exprs, " ")
		}
		r.Body = ph + ">"
	}
	return &q
}

// expressions lists the distinct ${…} expressions of s in order.
func expressions(s string) []string {
	var out []string
	for {
		i, j, ok := profiles.NextPlaceholder(s)
		if !ok {
			return out
		}
		if e := s[i:j]; !slices.Contains(out, e) {
			out = append(out, e)
		}
		s = s[j:]
	}
}

// checkNoBodies fails when the golden text holds any substantial line of
// a request body of p.
func checkNoBodies(t *testing.T, golden []byte, p *profiles.Profile) {
	t.Helper()
	for _, r := range p.Requests {
		for line := range strings.Lines(r.Body) {
			if line = strings.TrimSpace(line); len(line) >= 16 && bytes.Contains(golden, []byte(line)) {
				t.Errorf("golden text holds the body line %q: bodies must be replaced by their digest", line)
			}
		}
	}
}
