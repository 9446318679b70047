package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// profiles check refuses what run refuses: it compiles and renders every
// request body, so an imported plan whose body is broken JSON fails the
// check, while a good one still passes.
func TestProfilesCheckRendersBodies(t *testing.T) {
	t.Parallel()
	jmeter := shareddata.Dir(t, "jmeter")
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	if code, _, stderr := cliRun(runImportJMX, filepath.Join(jmeter, "2_test_scenario_2k_rps_stndDefined.jmx"), "-o", broken); code != exitOK {
		t.Fatalf("import-jmx: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cliRun(runProfiles, "check", broken)
	if code != exitUsage || !strings.Contains(stderr, "not valid JSON") || strings.Contains(stdout, "ok") {
		t.Fatalf("check of a broken body: exit %d stdout %q stderr %q, want exit 2 and the JSON error", code, stdout, stderr)
	}
	good := filepath.Join(dir, "good.yaml")
	body := "name: good\nvars:\n  HOST: \"\"\ntarget:\n  url: http://${HOST}:8080/eventListener/v7\nrequests:\n  - name: r\n    body: '{\"event\": {\"commonEventHeader\": {\"eventId\": \"{{.EventID}}\", \"sourceName\": \"${HOST}\"}}}'\n"
	if err := os.WriteFile(good, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cliRun(runProfiles, "check", good)
	if code != exitOK || !strings.HasPrefix(stdout, "ok  "+good) || !strings.Contains(stdout, "HOST") {
		t.Fatalf("check of a good profile: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}
