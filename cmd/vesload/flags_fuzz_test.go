package main

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles/scenario"
)

// FuzzRunFlags feeds arbitrary command lines through everything `run` does
// before it touches the network: flag parsing, checks, the scenario and
// the plan. Whatever the input, the outcome is a plan or one clean error
// line, never a panic.
func FuzzRunFlags(f *testing.F) {
	for _, seed := range []string{
		"-rps 100 -duration 10m",
		"--rps=0.5 --duration=1s --batch 3 --event measurement",
		"-rps -1", "-duration 10 minutes", "-pool 0", "-H no-colon", "--set A", "-event nosuch",
		"-profile ves-100rps-10m -duration 1s", "-profile nosuch", "--threshold p99<",
		"-url http://user:s3cr3tpw@127.0.0.1:1/x", "-url http://user:s3cr3tpw@[::1/x", "-url ::", "--event-size 99999999999999999999",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		var o runOptions
		fs := runFlags(&o)
		// A password given only as the user info of --url must never be
		// echoed (elsewhere, as a flag name say, it is no password).
		hidden := urlPasswordOnly(args, "s3cr3tpw")
		check := func(err error) {
			t.Helper()
			msg := err.Error()
			if msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("error %q is not one line", msg)
			}
			if hidden && strings.Contains(msg, "s3cr3tpw") {
				t.Fatalf("error %q shows a password", msg)
			}
		}
		if err := parseFlags(fs, args); err != nil {
			check(err)
			return
		}
		if err := checkNumbers(&o); err != nil {
			check(err)
			return
		}
		sc, err := resolveScenario(&o, fs.Changed)
		if err != nil {
			check(err)
			return
		}
		if sc.Target.URL == "" {
			sc.Target.URL = "http://127.0.0.1:9/eventListener/v7"
		}
		if _, err := scenario.Compile(sc, scenario.Options{NoPreflight: true}); err != nil {
			check(err)
		}
	})
}

// urlPasswordOnly reports whether pw occurs in args only as the password
// of a --url value.
func urlPasswordOnly(args []string, pw string) bool {
	found := false
	for i, a := range args {
		if !strings.Contains(a, pw) {
			continue
		}
		value, isURL := a, false
		if i > 0 && (args[i-1] == "-url" || args[i-1] == "--url") {
			isURL = true
		} else if v, ok := strings.CutPrefix(a, "--url="); ok {
			value, isURL = v, true
		} else if v, ok := strings.CutPrefix(a, "-url="); ok {
			value, isURL = v, true
		}
		if !isURL || strings.Count(value, pw) != strings.Count(value, ":"+pw+"@") {
			return false
		}
		found = true
	}
	return found
}
