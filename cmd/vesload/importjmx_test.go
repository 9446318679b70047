package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
	"github.com/vesload/vesload/profiles"
)

const warnPrefix = "vesload import-jmx: warning: "

// summaryLine matches the closing line of an import.
var summaryLine = regexp.MustCompile(`^vesload import-jmx: \S+: \d+ requests over \S+, mean [\d.]+ rps(; \d+ warnings?)?; written to \S+`)

// splitStderr separates the warnings from the closing summary line and
// fails when stderr has any other line.
func splitStderr(t *testing.T, stderr string) (warns []string, summary string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	summary = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, warnPrefix) {
			t.Errorf("stderr line is not a warning: %q", l)
		}
		warns = append(warns, strings.TrimPrefix(l, warnPrefix))
	}
	if !summaryLine.MatchString(summary) {
		t.Errorf("last stderr line is not the summary: %q", summary)
	}
	return warns, summary
}

func TestImportJMXSharedPlans(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "jmeter")
	plans, err := filepath.Glob(filepath.Join(dir, "*.jmx"))
	if err != nil || len(plans) == 0 {
		t.Fatalf("no JMeter plans in %s: %v", dir, err)
	}
	for _, plan := range plans {
		name := strings.TrimSuffix(filepath.Base(plan), ".jmx")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := callCmd(runImportJMX, plan)
			if code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", code, errs)
			}
			p, err := profiles.Parse([]byte(out), name+".yaml")
			if err != nil {
				t.Fatalf("the imported profile does not parse: %v", err)
			}
			warns, summary := splitStderr(t, errs)
			if len(warns) == 0 {
				t.Errorf("no warnings: every ONAP plan has listeners or an auth manager")
			}
			// The profile carries the same warnings as comments.
			for _, w := range warns {
				if !strings.Contains(out, "#   "+w+"\n") {
					t.Errorf("warning %q not in the profile's comments", w)
				}
			}
			want := p.Load.Describe()
			if !strings.Contains(summary, ": "+want+";") || p.Load.TotalRequests() == 0 {
				t.Errorf("summary %q does not give %q", summary, want)
			}
			if missing := p.MissingVars(); len(missing) > 0 {
				if !strings.HasSuffix(summary, "; before a run, "+p.MissingAdvice()) {
					t.Errorf("summary %q does not say to set %v", summary, missing)
				}
			} else if strings.Contains(summary, "before a run") {
				t.Errorf("summary %q asks for variables the profile does not need", summary)
			}
			// The same plan written with -o gives the same file.
			path := filepath.Join(t.TempDir(), "p.yaml")
			code, out2, errs := callCmd(runImportJMX, plan, "-o", path)
			data, err := os.ReadFile(path)
			if code != exitOK || out2 != "" || err != nil || string(data) != out {
				t.Fatalf("-o %s: exit %d, stdout %d bytes, %v; file differs from stdout: %v", path, code, len(out2), err, string(data) != out)
			}
			if _, summary := splitStderr(t, errs); !strings.Contains(summary, "; written to "+path) {
				t.Errorf("summary %q does not name %s", summary, path)
			}
		})
	}
}

func TestImportJMXSet(t *testing.T) {
	t.Parallel()
	plan := writePlan(t, testPlan("http://${WORKER_IP}:8080/eventListener/v7"))
	code, out, errs := callCmd(runImportJMX, "--set", "WORKER_IP=127.0.0.1", plan)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p, err := profiles.Parse([]byte(out), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if missing := p.MissingVars(); len(missing) != 0 || p.Vars["WORKER_IP"] != "127.0.0.1" {
		t.Errorf("vars %v, missing %v: want WORKER_IP set", p.Vars, missing)
	}
	if _, summary := splitStderr(t, errs); strings.Contains(summary, "before a run") {
		t.Errorf("summary %q still asks for a variable", summary)
	}

	code, _, errs = callCmd(runImportJMX, plan)
	if _, summary := splitStderr(t, errs); code != exitOK ||
		!strings.HasSuffix(summary, "; before a run, set WORKER_IP with --url or --set WORKER_IP=…") {
		t.Errorf("without --set: exit %d, summary %q", code, summary)
	}
}

func TestImportJMXErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := writePlan(t, testPlan("http://${WORKER_IP}:8080/eventListener/v7"))
	broken := write("broken.jmx", "<?xml version=\"1.0\"?>\n<jmeterTestPlan>\n  <hashTree>\n    <TestPlan></hashTree>\n")
	notPlan := write("other.jmx", "<project><target/></project>\n")
	missing := filepath.Join(dir, "missing.jmx")
	q := regexp.QuoteMeta

	tests := []struct {
		name string
		args []string
		code int
		want string // the one stderr line must match
	}{
		{"broken XML gives line:column", []string{broken}, exitUsage,
			`^vesload import-jmx: ` + q(broken) + `:4:\d+: invalid XML: `},
		{"not a JMeter plan", []string{notPlan}, exitUsage, `^vesload import-jmx: ` + q(notPlan) + `:1:1: not a JMeter plan`},
		{"missing file is named", []string{missing}, exitUsage, `^vesload import-jmx: open JMeter plan: .*` + q(missing)},
		{"a folder", []string{dir}, exitUsage, `^vesload import-jmx: JMeter plan ` + q(dir) + `: is a directory$`},
		{"no plan", nil, exitUsage, `^vesload import-jmx: name the JMeter plan to import`},
		{"two plans", []string{good, broken}, exitUsage, `^vesload import-jmx: unexpected argument "` + q(broken) + `"`},
		{"bad flag", []string{good, "--bogus"}, exitUsage, `^vesload import-jmx: unknown flag: --bogus$`},
		{"--set without =", []string{good, "--set", "WORKER_IP"}, exitUsage, `^vesload import-jmx: --set "WORKER_IP": want NAME=VALUE$`},
		{"--set of an unknown variable", []string{good, "--set", "WORKER=x"}, exitUsage, `^vesload import-jmx: --set WORKER: .*WORKER_IP`},
		{"--set giving a bad URL", []string{good, "--set", "WORKER_IP=a b"}, exitUsage, `^vesload import-jmx: --set: .*target\.url`},
		{"unwritable output", []string{good, "-o", filepath.Join(missing, "p.yaml")}, exitRun,
			`^vesload import-jmx: write profile ` + q(filepath.Join(missing, "p.yaml")) + `: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := callCmd(runImportJMX, tt.args...)
			if code != tt.code || out != "" {
				t.Fatalf("exit %d stdout %q, want %d and nothing (stderr %q)", code, out, tt.code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if tt.code == exitRun {
				lines = lines[len(lines)-1:] // the warnings came before
			} else {
				oneStderrLine(t, errs)
			}
			if !regexp.MustCompile(tt.want).MatchString(lines[0]) {
				t.Errorf("stderr %q does not match %s", lines[0], tt.want)
			}
		})
	}
}

func TestImportJMXHelp(t *testing.T) {
	t.Parallel()
	code, out, errs := callCmd(dispatch, "import-jmx", "-help")
	if code != exitOK || errs != "" || !strings.Contains(out, importJMXSynopsis) || !strings.Contains(out, "--set") {
		t.Errorf("exit %d stdout %q stderr %q", code, out, errs)
	}
}

// TestImportJMXEndToEnd converts a plan with the binary and checks the
// file it writes with `vesload profiles check`.
func TestImportJMXEndToEnd(t *testing.T) {
	t.Parallel()
	plan := writePlan(t, testPlan("http://${WORKER_IP}:8080/eventListener/v7"))
	out := filepath.Join(t.TempDir(), "plan.yaml")
	o := vesload(t, 30*time.Second, "import-jmx", plan, "-o", out)
	if o.code != exitOK || o.stdout != "" {
		t.Fatalf("import-jmx: exit %d stdout %q stderr %s", o.code, o.stdout, o.stderr)
	}
	if !strings.Contains(o.stderr, warnPrefix+"line ") || !strings.Contains(o.stderr, "100 requests over 10s, mean 10 rps") {
		t.Errorf("stderr lacks the warnings or the summary:\n%s", o.stderr)
	}
	o = vesload(t, 30*time.Second, "profiles", "check", out)
	if o.code != exitOK || o.stdout != "ok  "+out+" (before a run, set WORKER_IP with --url or --set WORKER_IP=…)\n" {
		t.Errorf("profiles check: exit %d stdout %q stderr %q", o.code, o.stdout, o.stderr)
	}
}

func writePlan(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.jmx")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testPlan is a small JMeter plan: 100 threads over a 10 s ramp-up, one
// loop, posting a fault event to host (a URL with a ${VAR} host), plus a
// listener that the import warns about.
func testPlan(url string) string {
	host := strings.TrimPrefix(url, "http://")
	host, path, _ := strings.Cut(host, "/")
	host, port, _ := strings.Cut(host, ":")
	return `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="cli test" enabled="true">
      <boolProp name="TestPlan.serialize_threadgroups">false</boolProp>
    </TestPlan>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Group" enabled="true">
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller" enabled="true">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">1</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">100</stringProp>
        <stringProp name="ThreadGroup.ramp_time">10</stringProp>
        <boolProp name="ThreadGroup.scheduler">false</boolProp>
      </ThreadGroup>
      <hashTree>
        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="fault" enabled="true">
          <boolProp name="HTTPSampler.postBodyRaw">true</boolProp>
          <elementProp name="HTTPsampler.Arguments" elementType="Arguments">
            <collectionProp name="Arguments.arguments">
              <elementProp name="" elementType="HTTPArgument">
                <boolProp name="HTTPArgument.always_encode">false</boolProp>
                <stringProp name="Argument.value">{&quot;event&quot;: {&quot;commonEventHeader&quot;: {&quot;domain&quot;: &quot;fault&quot;, &quot;startEpochMicrosec&quot;: ${__time()}}}}</stringProp>
                <stringProp name="Argument.metadata">=</stringProp>
              </elementProp>
            </collectionProp>
          </elementProp>
          <stringProp name="HTTPSampler.domain">` + host + `</stringProp>
          <stringProp name="HTTPSampler.port">` + port + `</stringProp>
          <stringProp name="HTTPSampler.protocol">http</stringProp>
          <stringProp name="HTTPSampler.path">/` + path + `</stringProp>
          <stringProp name="HTTPSampler.method">POST</stringProp>
        </HTTPSamplerProxy>
        <hashTree/>
        <ResultCollector guiclass="ViewResultsFullVisualizer" testclass="ResultCollector" testname="View Results Tree" enabled="true"/>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`
}

// A plan of six identical thread groups gets each distinct warning once,
// with the number of thread groups it applies to, not six times.
func TestImportJMXRollsUpRepeatedWarnings(t *testing.T) {
	t.Parallel()
	plan := filepath.Join(shareddata.Dir(t, "jmeter"), "1_test_scenario_6_steps.jmx")
	code, _, errs := callCmd(runImportJMX, plan)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	warns, summary := splitStderr(t, errs)
	seen := map[string]bool{}
	for _, w := range warns {
		_, text, _ := strings.Cut(w, ": ") // after "line N" or "lines …"
		if seen[text] {
			t.Errorf("warning printed twice: %s", text)
		}
		seen[text] = true
	}
	rolled := 0
	for _, w := range warns {
		if strings.Contains(w, "(6 thread groups): ") {
			rolled++
		}
	}
	if len(warns) != 6 || rolled != 4 || !strings.Contains(summary, "; 6 warnings;") {
		t.Errorf("%d warnings, %d of them over 6 thread groups, summary %q; want 6, 4 and \"6 warnings\":\n%s", len(warns), rolled, summary, errs)
	}
}
