package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/shareddata"
	"github.com/vesload/vesload/testserver"
)

// TestStndDefinedPlansRawBody imports ONAP's four stndDefined JMeter
// plans, whose body is one closing brace short, and runs each against the
// emulator: without --raw-body the run refuses to start; with it the body
// goes out as written, a warning says so, and the emulator answers as
// the collector does (org.json throws, uncaught: 500), or, in its strict
// mode, 400 SVC0002.
func TestStndDefinedPlansRawBody(t *testing.T) {
	t.Parallel()
	plans := shareddata.Dir(t, "jmeter")
	schemas := shareddata.Dir(t, "ves")
	lenient := startEmulatorFor(t, testserver.Options{SchemaDir: schemas})
	strict := startEmulatorFor(t, testserver.Options{SchemaDir: schemas, StrictJSON: true})
	env := []string{"VESLOAD_PASSWORD=sample1"}
	for _, rate := range []string{"2k", "3k", "4k", "5k"} {
		t.Run(rate, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			prof := filepath.Join(dir, "plan.yaml")
			o := vesload(t, 30*time.Second, "import-jmx", filepath.Join(plans, "2_test_scenario_"+rate+"_rps_stndDefined.jmx"), "-o", prof)
			if o.code != exitOK || !strings.Contains(o.stderr, "body is not valid JSON") {
				t.Fatalf("import-jmx: exit %d, stderr %s", o.code, o.stderr)
			}
			args := []string{"run", "-profile", prof, "--rps", "20", "--duration", "1s", "-q"}
			o = vesloadEnv(t, 30*time.Second, env, append(args, "--url", lenient.URL()+"/eventListener/v7")...)
			if o.code != exitUsage || !strings.Contains(o.stderr, "rendered body is not valid JSON") {
				t.Fatalf("run without --raw-body: exit %d, want %d; stderr %s", o.code, exitUsage, o.stderr)
			}
			for _, c := range []struct {
				emu   *testserver.Server
				class string
				msgID string
			}{
				{lenient, "http_500", ""},
				{strict, "http_400", "SVC0002"},
			} {
				out := filepath.Join(dir, c.class+".json")
				o = vesloadEnv(t, 30*time.Second, env, append(args, "--raw-body", "-o", out, "--url", c.emu.URL()+"/eventListener/v7")...)
				if !strings.Contains(o.stderr, "warning: request HTTP Request: body is not valid JSON") {
					t.Errorf("no warning about the body on stderr: %s", o.stderr)
				}
				res := readResult(t, out)
				if res.Requests.Sent == 0 || res.Errors[c.class] != res.Requests.Sent {
					t.Errorf("%s: %d sent, errors %v; want every request %s", c.class, res.Requests.Sent, res.Errors, c.class)
				}
				if c.msgID != "" && res.MessageIDs[c.msgID] != res.Requests.Sent {
					t.Errorf("message ids %v, want %d × %s", res.MessageIDs, res.Requests.Sent, c.msgID)
				}
			}
		})
	}
}

func startEmulatorFor(t *testing.T, opts testserver.Options) *testserver.Server {
	t.Helper()
	s, err := testserver.Start(opts)
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
