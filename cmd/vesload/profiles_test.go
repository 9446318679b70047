package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/profiles"
)

// callCmd runs a subcommand function and returns its exit code, stdout
// and stderr.
func callCmd(run func([]string, io.Writer, io.Writer) int, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// oneStderrLine fails unless stderr is exactly one line.
func oneStderrLine(t *testing.T, stderr string) string {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("stderr is not one line: %q", stderr)
	}
	return strings.TrimSuffix(stderr, "\n")
}

func TestProfilesList(t *testing.T) {
	t.Parallel()
	infos := profiles.Builtins()
	if len(infos) < 10 {
		t.Fatalf("%d built-ins, want the 10 of the issue", len(infos))
	}
	for _, args := range [][]string{nil, {"list"}} {
		code, out, errs := callCmd(runProfiles, args...)
		if code != exitOK || errs != "" {
			t.Fatalf("profiles %v: exit %d, stderr %q", args, code, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(infos) {
			t.Fatalf("%d lines for %d built-ins:\n%s", len(lines), len(infos), out)
		}
		col := -1
		for i, in := range infos {
			if in.Description == "" || strings.HasPrefix(in.Description, "(invalid") {
				t.Errorf("built-in %s has description %q", in.Name, in.Description)
			}
			if !strings.HasPrefix(lines[i], in.Name+" ") || !strings.HasSuffix(lines[i], "  "+in.Description) {
				t.Errorf("line %d = %q, want %s then its description", i, lines[i], in.Name)
			}
			// The descriptions start in one column: the names are padded.
			c := len(lines[i]) - len(in.Description)
			if col >= 0 && c != col {
				t.Errorf("line %d: description at column %d, others at %d", i, c, col)
			}
			col = c
		}
	}
}

func TestProfilesShow(t *testing.T) {
	t.Parallel()
	for _, in := range profiles.Builtins() {
		t.Run(in.Name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := callCmd(runProfiles, "show", in.Name)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			want, err := profiles.BuiltinYAML(in.Name)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("show prints something else than the embedded YAML:\n%s", out)
			}
			// The printed copy is a profile that loads as a file.
			path := filepath.Join(t.TempDir(), "copy.yaml")
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs = callCmd(runProfiles, "check", path)
			if code != exitOK || out != "ok  "+path+"\n" {
				t.Errorf("check of the copy: exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
}

func TestProfilesCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.yaml", "name: good\nload: {rps: 5, duration: 1m}\n")
	vars := write("vars.yaml", "name: vars\nvars: {HOST: \"\"}\ntarget: {url: \"https://${HOST}:8443/eventListener/v7\"}\nload: {rps: 5, duration: 1m}\n")
	typo := write("typo.yaml", "name: typo\nload:\n  rps: 5\n  duraton: 1m\n")
	write("pnf.json", `{"event": {"commonEventHeader": {"sourceName": "${PNF}"}}}`)
	bodyVars := write("body.yaml", "name: body\nload: {rps: 5, duration: 1m}\nrequests:\n  - body_file: pnf.json\n")
	noBody := write("nobody.yaml", "name: nobody\nload: {rps: 5, duration: 1m}\nrequests:\n  - body_file: nosuch.json\n")
	missing := filepath.Join(dir, "missing.yaml")
	var brokenGates []string
	for i, g := range []string{"p99<<500ms", "p99 500ms", "p99<=<500ms"} {
		brokenGates = append(brokenGates, write(fmt.Sprintf("gate%d.yaml", i), "name: gate\nload: {rps: 5, duration: 1m}\nthresholds:\n  - error_rate<1%\n  - "+g+"\n"))
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr *regexp.Regexp // nil: stderr must be empty
	}{
		{"valid file", []string{good}, exitOK, "ok  " + good + "\n", nil},
		{"missing variables are named", []string{vars}, exitOK,
			"ok  " + vars + " (before a run, set HOST with --url or --set HOST=…)\n", nil},
		{"a built-in name checks the built-in", []string{"ves-6-steps"}, exitOK, "ok  ves-6-steps\n", nil},
		{"body file variables are named", []string{bodyVars}, exitOK,
			"ok  " + bodyVars + " (before a run, set PNF with --set PNF=…)\n", nil},
		{"a missing body file fails", []string{noBody}, exitUsage, "",
			regexp.MustCompile(`^vesload profiles check: ` + regexp.QuoteMeta(noBody) + `: read body file: .*nosuch\.json`)},
		{"typo'd key: file:line:column first", []string{typo}, exitUsage, "",
			regexp.MustCompile(`^` + regexp.QuoteMeta(typo) + `:4:3: unknown key "duraton" in load: did you mean "duration"\?$`)},
		{"a broken threshold at its line", []string{brokenGates[0]}, exitUsage, "",
			regexp.MustCompile(`^` + regexp.QuoteMeta(brokenGates[0]) + `:5:5: thresholds\[1\]: threshold "p99<<500ms": column 4: unknown operator "<<"`)},
		{"a threshold without its operator", []string{brokenGates[1]}, exitUsage, "",
			regexp.MustCompile(`^` + regexp.QuoteMeta(brokenGates[1]) + `:5:5: thresholds\[1\]: threshold "p99 500ms": column 5: expected an operator`)},
		{"a threshold with two operators", []string{brokenGates[2]}, exitUsage, "",
			regexp.MustCompile(`^` + regexp.QuoteMeta(brokenGates[2]) + `:5:5: thresholds\[1\]: threshold "p99<=<500ms"`)},
		{"missing file is named", []string{missing}, exitUsage, "",
			regexp.MustCompile(`^vesload profiles check: .*` + regexp.QuoteMeta(missing))},
		{"no file", nil, exitUsage, "", regexp.MustCompile(`^vesload profiles check: name at least one profile file$`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := callCmd(runProfiles, append([]string{"check"}, tt.args...)...)
			if code != tt.code || out != tt.stdout {
				t.Errorf("exit %d stdout %q, want %d %q (stderr %q)", code, out, tt.code, tt.stdout, errs)
			}
			if tt.stderr == nil {
				if errs != "" {
					t.Errorf("stderr %q, want none", errs)
				}
				return
			}
			if line := oneStderrLine(t, errs); !tt.stderr.MatchString(line) {
				t.Errorf("stderr %q does not match %s", line, tt.stderr)
			}
		})
	}

	t.Run("a run names the profile's line, not a flag", func(t *testing.T) {
		t.Parallel()
		o := vesload(t, 30*time.Second, "-profile", brokenGates[0], "-duration", "1s", "-q")
		if o.code != exitUsage || strings.Contains(o.stderr, "--threshold") || !strings.Contains(o.stderr, brokenGates[0]+":5:5: thresholds[1]") {
			t.Errorf("exit %d, stderr %q", o.code, o.stderr)
		}
	})

	t.Run("every file is checked and any failure fails", func(t *testing.T) {
		t.Parallel()
		code, out, errs := callCmd(runProfiles, "check", typo, good)
		if code != exitUsage || out != "ok  "+good+"\n" || !strings.HasPrefix(oneStderrLine(t, errs), typo+":4:3: ") {
			t.Errorf("exit %d stdout %q stderr %q", code, out, errs)
		}
	})
}

func TestProfilesBadUsage(t *testing.T) {
	t.Parallel()
	names := make([]string, 0, 10)
	for _, in := range profiles.Builtins() {
		names = append(names, in.Name)
	}
	tests := []struct {
		args []string
		want []string // each must be in the one stderr line
	}{
		{[]string{"show", "ves-7-steps"}, append([]string{`no built-in profile "ves-7-steps"`}, names...)},
		{[]string{"show", "../builtin/ves-6-steps"}, append([]string{"no built-in profile"}, names...)},
		{[]string{"show", "bad\nname"}, []string{`"bad\nname"`}},
		{[]string{"show"}, names},
		{[]string{"show", "ves-6-steps", "ves-50rps-10m"}, []string{`unexpected argument "ves-50rps-10m"`}},
		{[]string{"list", "x"}, []string{`unexpected argument "x"`}},
		{[]string{"shwo"}, []string{`unknown command "shwo"`, "show NAME", "check FILE"}},
		{[]string{"--nope"}, []string{"vesload profiles: unknown flag: --nope"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errs := callCmd(runProfiles, tt.args...)
			if code != exitUsage || out != "" {
				t.Fatalf("exit %d stdout %q, want %d and nothing", code, out, exitUsage)
			}
			line := oneStderrLine(t, errs)
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("stderr %q lacks %q", line, w)
				}
			}
		})
	}
}

func TestProfilesHelpAndDispatch(t *testing.T) {
	t.Parallel()
	code, out, errs := callCmd(dispatch, "profiles", "--help")
	if code != exitOK || errs != "" || !strings.Contains(out, "vesload profiles show NAME") {
		t.Errorf("help: exit %d stdout %q stderr %q", code, out, errs)
	}
	code, out, _ = callCmd(dispatch, "help")
	for _, cmd := range []string{"profiles", "import-jmx"} {
		if code != exitOK || !regexp.MustCompile(`(?m)^  `+cmd+` +\S`).MatchString(out) {
			t.Errorf("vesload help does not list %s:\n%s", cmd, out)
		}
	}
	code, out, _ = callCmd(dispatch, "profiles", "show", "ves-50rps-10m")
	if code != exitOK || !strings.Contains(out, "rps: 50") {
		t.Errorf("vesload profiles show ves-50rps-10m: exit %d\n%s", code, out)
	}
}
