package jmx

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/profiles"
)

func importString(t *testing.T, jmx string) (*profiles.Profile, []Warning) {
	t.Helper()
	p, warns, err := Import(strings.NewReader(jmx), "plan.jmx")
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return p, warns
}

func warningsText(warns []Warning) string {
	var b strings.Builder
	for _, w := range warns {
		b.WriteString(w.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestImportLoadShapes(t *testing.T) {
	t.Parallel()
	sec := time.Second
	one := tg{threads: "100", ramp: "10", loops: "1"}
	tests := []struct {
		name  string
		jmx   string
		want  profiles.Shape
		total int64
	}{
		{"T threads over R s, one loop: T/R rps for R s",
			plan(false, nil, threadGroup(one, vesSampler("ves"))),
			profiles.Shape{RPS: 10, Duration: 10 * sec}, 100},
		{"a rate that is not whole keeps the exact count",
			plan(false, nil, threadGroup(tg{threads: "1000", ramp: "150", loops: "1"}, vesSampler("ves"))),
			profiles.Shape{Requests: 1000, Duration: 150 * sec}, 1000},
		{"two samplers per iteration double the rate",
			plan(false, nil, threadGroup(one, vesSampler("a"), vesSampler("b"))),
			profiles.Shape{RPS: 20, Duration: 10 * sec}, 200},
		{"serialized groups become consecutive stages",
			plan(true, nil, threadGroup(one, vesSampler("ves")), threadGroup(tg{threads: "300", ramp: "10", loops: "1"}, vesSampler("ves"))),
			profiles.Shape{Stages: []profiles.Stage{{RPS: 10, Duration: 10 * sec}, {RPS: 30, Duration: 10 * sec}}}, 400},
		{"parallel groups add up",
			plan(false, nil, threadGroup(one, vesSampler("ves")), threadGroup(tg{threads: "100", ramp: "20", loops: "1"}, vesSampler("ves"))),
			profiles.Shape{Stages: []profiles.Stage{{RPS: 15, Duration: 10 * sec}, {RPS: 5, Duration: 10 * sec}}}, 200},
		{"startup delay is a pause",
			plan(true, nil, threadGroup(tg{threads: "100", ramp: "10", loops: "1", scheduler: true, duration: "60", delay: "5"}, vesSampler("ves"))),
			profiles.Shape{Stages: []profiles.Stage{{Duration: 5 * sec}, {RPS: 10, Duration: 10 * sec}}}, 100},
		{"scheduler shorter than the ramp-up cuts it",
			plan(false, nil, threadGroup(tg{threads: "100", ramp: "10", loops: "1", scheduler: true, duration: "4"}, vesSampler("ves"))),
			profiles.Shape{RPS: 10, Duration: 4 * sec}, 40},
		{"constant throughput timer, all threads: per minute / 60",
			plan(false, nil, threadGroup(tg{threads: "10", ramp: "1", loops: "-1", scheduler: true, duration: "60"}, constantThroughput("6000.0", 1), vesSampler("ves"))),
			profiles.Shape{RPS: 100, Duration: time.Minute}, 6000},
		{"constant throughput timer, this thread only: × threads",
			plan(false, nil, threadGroup(tg{threads: "10", ramp: "1", loops: "-1", scheduler: true, duration: "30"}, vesSampler("ves", constantThroughput("60", 0)))),
			profiles.Shape{RPS: 10, Duration: 30 * sec}, 300},
		{"constant throughput timer with loops: the loops' requests at its rate",
			plan(false, nil, constantThroughput("600", 1), threadGroup(tg{threads: "10", ramp: "1", loops: "5"}, vesSampler("ves"))),
			profiles.Shape{RPS: 10, Duration: 5 * sec}, 50},
		{"precise throughput timer",
			plan(false, nil, threadGroup(tg{threads: "50", ramp: "1", loops: "-1"}, preciseThroughput("360000.0", 3600, 120), vesSampler("ves"))),
			profiles.Shape{RPS: 100, Duration: 2 * time.Minute}, 12000},
		{"throughput shaping timer: ramps and steps",
			plan(false, nil, threadGroup(tg{threads: "200", ramp: "0", loops: "-1"}, shapingTimer([3]int{0, 100, 10}, [3]int{100, 100, 20}, [3]int{100, 0, 10}), vesSampler("ves"))),
			profiles.Shape{Stages: []profiles.Stage{
				{Ramp: &profiles.Ramp{From: 0, To: 100, Over: 10 * sec}},
				{RPS: 100, Duration: 20 * sec},
				{Ramp: &profiles.Ramp{From: 100, To: 0, Over: 10 * sec}},
			}}, 3000},
		{"throughput shaping timer cut by the scheduler",
			plan(false, nil, threadGroup(tg{threads: "200", ramp: "0", loops: "-1", scheduler: true, duration: "5"}, shapingTimer([3]int{0, 100, 10}), vesSampler("ves"))),
			profiles.Shape{Ramp: &profiles.Ramp{From: 0, To: 50, Over: 5 * sec}}, 125},
		{"loop controller repeats its samplers",
			plan(false, nil, threadGroup(one, `<LoopController guiclass="LoopControlPanel" testclass="LoopController" testname="x3" enabled="true">
  <stringProp name="LoopController.loops">3</stringProp>
</LoopController>
<hashTree>`+vesSampler("looped")+`</hashTree>`, vesSampler("once"))),
			profiles.Shape{RPS: 40, Duration: 10 * sec}, 400},
		{"loops forever in a single group: closed model",
			plan(false, nil, threadGroup(tg{threads: "64", ramp: "0", loops: "-1", scheduler: true, duration: "120"}, vesSampler("ves"))),
			profiles.Shape{Closed: &profiles.Closed{Concurrency: []int{64}, Step: 2 * time.Minute}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, warns := importString(t, tt.jmx)
			if !reflect.DeepEqual(p.Load, tt.want) {
				t.Errorf("load = %+v, want %+v\nwarnings:\n%s", p.Load, tt.want, warningsText(warns))
			}
			if got := p.Load.TotalRequests(); got != tt.total {
				t.Errorf("TotalRequests = %d, want %d", got, tt.total)
			}
		})
	}
}

func TestImportTargetAndMix(t *testing.T) {
	t.Parallel()
	jmx := plan(false, map[string]string{"TENANT": "onap", "HOST": "${__P(host,10.0.0.9)}"},
		headerManager("Content-Type", "application/json", "X-Tenant", "${TENANT}"),
		authManager("", "sample1", "s3cret-pw"),
		threadGroup(tg{threads: "10", ramp: "1", loops: "1"},
			headerManager("Authorization", "Basic c2FtcGxlMTpzM2NyZXQtcHc=", "x-tenant", "override"),
			httpSampler(sampler{name: "fault", protocol: "https", domain: "${HOST}", port: "8443", path: "/eventListener/v7",
				body: `{"id": "${__UUID}", "n": ${__counter(TRUE,)}, "r": ${__Random(1,10,rnd)}, "t": ${__time(,)}, "u": "${__threadNum}"}`}),
			httpSampler(sampler{name: "batch", protocol: "https", domain: "${HOST}", port: "8443", path: "/eventListener/v7/eventBatch",
				body: `{"eventList": [{"x": "${UNDEFINED}"}]}`}, headerManager("X-Batch", "yes")),
			elementXML("ResponseAssertion", "check 202"),
			elementXML("CookieManager", "cookies"),
			elementXML("ConstantTimer", "think"),
			elementXML("JSR223Sampler", "script"),
		),
		elementXML("ResultCollector", "View Results Tree"),
		`<SetupThreadGroup guiclass="SetupThreadGroupGui" testclass="SetupThreadGroup" testname="setup" enabled="true"/><hashTree/>`,
		`<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="disabled" enabled="false"/><hashTree/>`,
	)
	p, warns := importString(t, jmx)
	want := profiles.Target{
		URL:     "https://${HOST}:8443/eventListener/v7",
		Method:  "POST",
		Headers: map[string]string{"Content-Type": "application/json", "X-Tenant": "override"},
		Auth:    &profiles.Auth{User: "sample1", PasswordEnv: "VESLOAD_PASSWORD"},
	}
	if !reflect.DeepEqual(p.Target, want) {
		t.Errorf("target = %+v, want %+v", p.Target, want)
	}
	wantVars := map[string]string{"TENANT": "onap", "HOST": "10.0.0.9", "UNDEFINED": ""}
	if !reflect.DeepEqual(p.Vars, wantVars) {
		t.Errorf("vars = %v, want %v", p.Vars, wantVars)
	}
	wantReqs := []profiles.Request{
		{Name: "fault", Weight: 1, Body: `{"id": "${__UUID()}", "n": ${__counter(,)}, "r": ${__Random(1,10)}, "t": ${__time()}, "u": "${__threadNum}"}`},
		{Name: "batch", Weight: 1, Path: "/eventListener/v7/eventBatch", Body: `{"eventList": [{"x": "${UNDEFINED}"}]}`,
			Headers: map[string]string{"X-Batch": "yes"}},
	}
	if !reflect.DeepEqual(p.Requests, wantReqs) {
		t.Errorf("requests =\n%+v\nwant\n%+v", p.Requests, wantReqs)
	}
	if p.Timeout != 5*time.Second || !p.KeepAliveOn() {
		t.Errorf("timeout %v keepalive %v", p.Timeout, p.KeepAliveOn())
	}
	text := warningsText(warns)
	for _, want := range []string{
		`HeaderManager "HTTP Header Manager": header Authorization not imported`,
		`AuthManager "HTTP Authorization Manager": password not imported: vesload reads it at run time from $VESLOAD_PASSWORD`,
		`${__Random} stores into variable rnd`,
		`JMeter function __threadNum has no vesload equivalent`,
		`variable UNDEFINED is not defined in the plan: it became variable ${UNDEFINED}`,
		`ResponseAssertion "check 202": assertion not translated`,
		`CookieManager "cookies": cookie manager not translated`,
		`ConstantTimer "think": timer not translated`,
		`JSR223Sampler "script": sampler not translated`,
		`ResultCollector "View Results Tree": listener not translated`,
		`SetupThreadGroup "setup": setUp/tearDown thread groups are not translated`,
		`JMeter accepts any server certificate`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning contains %q; got:\n%s", want, text)
		}
	}
	if strings.Contains(text, "disabled") {
		t.Errorf("a disabled element was reported:\n%s", text)
	}
	out, err := Render(p, "plan.jmx", warns)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"s3cret-pw", "c2FtcGxlMTpzM2NyZXQtcHc"} {
		if strings.Contains(string(out)+text, secret) {
			t.Errorf("the import reveals a secret %q:\n%s\n%s", secret, out, text)
		}
	}
	for i := 1; i < len(warns); i++ {
		if warns[i].Line < warns[i-1].Line {
			t.Errorf("warnings out of plan order: %v before %v", warns[i-1], warns[i])
		}
	}
}

func TestImportErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, jmx, want string }{
		{"invalid XML", "<jmeterTestPlan>\n  <hashTree>\n    <TestPlan></Plan>\n", "plan.jmx:3:15: invalid XML: element <TestPlan> closed by </Plan>"},
		{"truncated", "<jmeterTestPlan>\n  <hashTree>", "plan.jmx:2:13: invalid XML: unexpected EOF"},
		{"empty", "", "plan.jmx: not a JMeter plan: no XML element"},
		{"not JMeter", "<?xml version=\"1.0\"?>\n<project/>", "plan.jmx:2:1: not a JMeter plan: root element <project>, want <jmeterTestPlan>"},
		{"no test plan", "<jmeterTestPlan><hashTree/></jmeterTestPlan>", "plan.jmx:1:1: not a JMeter plan: no TestPlan element"},
		{"no thread group", plan(false, nil), "plan.jmx:4:5: nothing to import: no enabled Thread Group with an HTTP sampler"},
		{"unknown encoding", `<?xml version="1.0" encoding="EBCDIC"?><jmeterTestPlan/>`, `plan.jmx:1:1: invalid XML: opening charset "EBCDIC": encoding "EBCDIC" is not supported: save the plan as UTF-8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Import(strings.NewReader(tt.jmx), "plan.jmx")
			if err == nil || err.Error() != tt.want {
				t.Errorf("Import error\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, want string }{
		{`{"a": ${__time()}, "b": "${X}"}`, ""},
		// Judged as rendered: milliseconds followed by 000 are a valid number.
		{`{"startEpochMicrosec": ${__time()}000, "n": ${N}}`, ""},
		{`{"id": "${__UUID()}", "c": ${__counter(,)}, "r": ${__Random(1,5)}}`, ""},
		{"not json at all ${X}", ""},
		{"{\n  \"a\": 1\n", "unexpected end of JSON input at body line 3, column 1 (plan line 12): 1 closing brace missing"},
		{"{\"a\": [1, {\"b\": 2}\n", "unexpected end of JSON input at body line 2, column 1 (plan line 11): 1 closing brace and 1 closing bracket missing"},
		{"{\n  \"a\": 1,,\n}", "invalid character ',' looking for beginning of object key string at body line 2, column 10 (plan line 11)"},
		{"{\"t\": ${__time()} \"x\": 1}", "invalid character '\"' after object key:value pair at body line 1, column 19 (plan line 10)"},
	}
	for _, tt := range tests {
		if got := checkJSON(tt.body, 10); got != tt.want {
			t.Errorf("checkJSON(%q)\n got %q\nwant %q", tt.body, got, tt.want)
		}
	}
}

// TestCollectorAnswer: the warning on a body that is not JSON says what
// the collector answers, as the emulator answers it: 500 where org.json
// throws, the schema's judgement where org.json reads it leniently.
func TestCollectorAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, want string }{
		{"{\n  \"a\": 1\n", "answers it with 500"},
		{`{"a": "${__time()}", "b": {"c": 1}`, "answers it with 500"},
		{`{"a": [1, 2}`, "answers it with 500"},
		{`{"a": 1,}`, "reads it leniently"},
		{`{'a': 1}`, "reads it leniently"},
		{`{"a": {{.EventID}}, "b": 1} trailing`, "reads it leniently"},
		{`[{"a": 1}`, "answers it with 500"},
	}
	for _, tt := range tests {
		if got := collectorAnswer(tt.body); !strings.Contains(got, tt.want) {
			t.Errorf("collectorAnswer(%q) = %q, want it to say %q", tt.body, got, tt.want)
		}
	}
}

func TestTranslateText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"${__time()}|${__time}|${__time(,)}", "${__time()}|${__time()}|${__time()}"},
		{"${__UUID()} ${__UUID}", "${__UUID()} ${__UUID()}"},
		{"${__counter(FALSE,)}", "${__counter(,)}"},
		{"${__Random(5, 9)}", "${__Random(5,9)}"},
		{"${__P(port,8443)}", "${port}"},
		{"${__property(user.dir)}", "${__property(user.dir)}"},
		{"${__Random(1,${MAX})}", "${__Random(1,${MAX})}"},
		{"${unterminated", "${unterminated"},
		{"${a.b}", "${a.b}"},
	}
	for _, tt := range tests {
		imp := &importer{vars: map[string]string{}, once: map[string]bool{}}
		el := &element{n: &node{tag: "HTTPSamplerProxy"}}
		if got := imp.translateText(tt.in, el, "body"); got != tt.want {
			t.Errorf("translateText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUniqueEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
		notes          []string
	}{
		{"constant id and millis",
			`{"event":{"commonEventHeader":{"eventId": "fault0000245","startEpochMicrosec": ${__time()},"lastEpochMicrosec":${__time()}}}}`,
			`{"event":{"commonEventHeader":{"eventId": "{{.EventID}}","startEpochMicrosec": {{.EpochMicros}},"lastEpochMicrosec":{{.EpochMicros}}}}}`,
			[]string{`eventId "fault0000245" is the same`, `"startEpochMicrosec" and "lastEpochMicrosec": ${__time()} is epoch milliseconds`}},
		{"a batch gets one id per event",
			`{"eventList":[{"commonEventHeader":{"eventId":"a"}},{"commonEventHeader":{"eventId":"a"}}]}`,
			`{"eventList":[{"commonEventHeader":{"eventId":"{{.EventID}}"}},{"commonEventHeader":{"eventId":"{{.EventID}}-2"}}]}`,
			[]string{`eventId "a" is the same`}},
		{"already microseconds and already unique ids stay",
			`{"eventId": "${__UUID()}", "startEpochMicrosec": ${__time()}000, "lastEpochMicrosec": 1413378172000000}`,
			`{"eventId": "${__UUID()}", "startEpochMicrosec": ${__time()}000, "lastEpochMicrosec": 1413378172000000}`,
			nil},
		{"a variable id stays", `{"eventId": "${ID}"}`, `{"eventId": "${ID}"}`, nil},
	}
	for _, tt := range tests {
		got, notes := uniqueEvents(tt.in)
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
		if len(notes) != len(tt.notes) {
			t.Errorf("%s: notes %q, want %d", tt.name, notes, len(tt.notes))
			continue
		}
		for i, n := range notes {
			if !strings.Contains(n, tt.notes[i]) || !strings.Contains(n, "vesload sends") {
				t.Errorf("%s: note %q, want it to contain %q and say what vesload sends", tt.name, n, tt.notes[i])
			}
		}
		if problem := checkJSON(got, 1); problem != "" {
			t.Errorf("%s: rewritten body does not render as JSON: %s", tt.name, problem)
		}
	}
}
