package jmx

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

var positioned = regexp.MustCompile(`^fuzz\.jmx:\d+:\d+: invalid XML: `)

// FuzzImport checks that no plan makes the importer panic, that errors are
// one line (XML errors with line:column), that every import is a valid
// profile whose rendering reads back the same, and that the password of
// the plan never reaches the output.
func FuzzImport(f *testing.F) {
	seeds := []string{
		plan(false, nil, threadGroup(tg{threads: "100", ramp: "10", loops: "1"}, vesSampler("ves"), authManager("", "u", "pw-secret"))),
		plan(true, map[string]string{"H": "${__P(h,x)}"}, threadGroup(tg{threads: "1000", ramp: "150", loops: "1"}, vesSampler("a")),
			threadGroup(tg{threads: "5", ramp: "0", loops: "3"}, vesSampler("b"))),
		plan(false, nil, threadGroup(tg{threads: "10", ramp: "1", loops: "-1", scheduler: true, duration: "60", delay: "3"},
			shapingTimer([3]int{1, 10, 5}), preciseThroughput("60", 60, 10), constantThroughput("60", 0), vesSampler("c"))),
		plan(false, nil, threadGroup(tg{threads: "3", ramp: "1", loops: "1"}, httpSampler(sampler{name: "x", method: "GET", domain: "h", path: "p", body: "{\"a\": ${__Random(1,${M})}"}))),
		"<jmeterTestPlan>\n<hashTree>\n<TestPlan/></hashTree>", "<a><b></a>", "",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, warns, err := Import(strings.NewReader(string(data)), "fuzz.jmx")
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error spans lines: %q", msg)
			}
			if strings.Contains(msg, "invalid XML") && !positioned.MatchString(msg) {
				t.Fatalf("XML error without a position: %q", msg)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("imported profile does not validate: %v", err)
		}
		for _, w := range warns {
			if w.Line < 1 || strings.ContainsAny(w.String(), "\r\n") {
				t.Fatalf("bad warning %q", w.String())
			}
		}
		out, err := Render(p, "fuzz.jmx", warns)
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		if strings.Contains(string(data), "pw-secret") && strings.Contains(string(out), "pw-secret") && !strings.Contains(p.Target.URL+p.Target.Auth.User, "pw-secret") {
			t.Fatalf("the password reached the profile:\n%s", out)
		}
		back, err := profiles.Parse(out, "fuzz.yaml")
		if err != nil {
			t.Fatalf("rendered profile does not parse: %v\n%s", err, out)
		}
		back.Source = p.Source
		if !reflect.DeepEqual(p, back) {
			t.Fatalf("rendered profile reads back differently:\n%#v\n%#v\n%s", p, back, out)
		}
	})
}
