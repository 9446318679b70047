package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/table"
)

const profilesSynopsis = `vesload profiles                 list the built-in profiles
       vesload profiles show NAME       print a built-in profile's YAML, to copy and edit
       vesload profiles check FILE...   check profile files, printing "ok" or the first problem`

// runProfiles lists, prints and checks profiles: the built-ins are the
// starting point of most scenarios, so they must be easy to see and copy.
func runProfiles(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("profiles")
	if code, done := parseCommand(fs, args, profilesSynopsis, stdout, stderr); done {
		return code
	}
	rest := fs.Args()
	if len(rest) == 0 {
		listProfiles(stdout)
		return exitOK
	}
	switch rest[0] {
	case "list":
		if len(rest) > 1 {
			fmt.Fprintf(stderr, "vesload profiles list: unexpected argument %q\n", rest[1])
			return exitUsage
		}
		listProfiles(stdout)
		return exitOK
	case "show":
		return showProfile(rest[1:], stdout, stderr)
	case "check":
		return checkProfiles(rest[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "vesload profiles: unknown command %q: want show NAME or check FILE (or nothing, to list the built-ins)\n", rest[0])
	return exitUsage
}

// listProfiles writes one line per built-in: its name, padded, and the
// first line of its description.
func listProfiles(w io.Writer) {
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Left("")}}
	for _, in := range profiles.Builtins() {
		tb.Add(in.Name, in.Description)
	}
	for _, line := range tb.Plain("") {
		fmt.Fprintln(w, line)
	}
}

func builtinNameList() string {
	infos := profiles.Builtins()
	names := make([]string, len(infos))
	for i, in := range infos {
		names[i] = in.Name
	}
	return strings.Join(names, ", ")
}

// showProfile prints the embedded YAML of one built-in, byte for byte, so
// `vesload profiles show NAME > my.yaml` gives an editable copy.
func showProfile(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprintf(stderr, "vesload profiles show: name a built-in profile: %s\n", builtinNameList())
		return exitUsage
	case len(args) > 1:
		fmt.Fprintf(stderr, "vesload profiles show: unexpected argument %q: show takes one name\n", args[1])
		return exitUsage
	}
	data, err := profiles.BuiltinYAML(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "vesload profiles show: no built-in profile %q (built-ins: %s)\n", args[0], builtinNameList())
		return exitUsage
	}
	if _, err := stdout.Write(data); err != nil {
		fmt.Fprintf(stderr, "vesload profiles show: write: %v\n", err)
		return exitRun
	}
	return exitOK
}

// checkProfiles decodes and validates each file (or built-in name) as a
// run would, printing "ok  FILE" or the problem with its file:line:column
// first, as compilers do, so editors can jump to it.
func checkProfiles(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "vesload profiles check: name at least one profile file")
		return exitUsage
	}
	code := exitOK
	for _, path := range args {
		p, err := profiles.Load(path)
		if err != nil {
			var pe *profiles.Error
			if errors.As(err, &pe) {
				fmt.Fprintln(stderr, cliLine(err.Error()))
			} else {
				fmt.Fprintf(stderr, "vesload profiles check: %s\n", cliLine(err.Error()))
			}
			code = exitUsage
			continue
		}
		if err := p.ScanBodyFiles(); err != nil {
			fmt.Fprintf(stderr, "vesload profiles check: %s: %s\n", path, cliLine(err.Error()))
			code = exitUsage
			continue
		}
		line := "ok  " + path
		if missing := p.MissingVars(); len(missing) > 0 {
			line += " (before a run, " + setAdvice(p, missing) + ")"
		}
		if err := scenario.CheckBodies(p); err != nil {
			fmt.Fprintf(stderr, "vesload profiles check: %s: %s\n", path, cliLine(err.Error()))
			code = exitUsage
			continue
		}
		fmt.Fprintln(stdout, line)
	}
	return code
}

// setAdvice says how to give the missing variables: "set WORKER_IP with
// --url or --set WORKER_IP=…" (--url only when a variable is in the URL).
func setAdvice(p *profiles.Profile, missing []string) string {
	sets := make([]string, len(missing))
	inURL := false
	for i, name := range missing {
		sets[i] = "--set " + name + "=…"
		inURL = inURL || strings.Contains(p.Target.URL, "${"+name+"}")
	}
	how := strings.Join(sets, " ")
	if inURL {
		how = "--url or " + how
	}
	return "set " + strings.Join(missing, ", ") + " with " + how
}

// cliLine keeps text from the command line or a file on one output line.
func cliLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}
