package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/jmx"
	"github.com/vesload/vesload/report"
)

const importJMXSynopsis = "vesload import-jmx PLAN.jmx [-o profile.yaml] [--set NAME=VALUE ...]"

// importJMXOptions holds the flags of `vesload import-jmx`.
type importJMXOptions struct {
	output string
	sets   []string
}

// runImportJMX converts a JMeter plan into a profile. Everything the
// import could not translate is printed as a warning, so nothing of the
// plan is lost without the user knowing; the profile itself carries the
// same list as comments.
func runImportJMX(args []string, stdout, stderr io.Writer) int {
	var o importJMXOptions
	fs := newFlagSet("import-jmx")
	fs.StringVarP(&o.output, "output", "o", "", "write the profile to FILE (default: stdout)")
	fs.StringArrayVar(&o.sets, "set", nil, "give variable NAME the value VALUE in the profile, e.g. --set WORKER_IP=collector (repeatable)")
	if code, done := parseCommand(fs, args, importJMXSynopsis, stdout, stderr); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		fmt.Fprintf(stderr, "vesload import-jmx: name the JMeter plan to import (usage: %s)\n", importJMXSynopsis)
		return exitUsage
	case 1:
	default:
		fmt.Fprintf(stderr, "vesload import-jmx: unexpected argument %q: import one plan at a time\n", fs.Arg(1))
		return exitUsage
	}
	code, err := importJMX(&o, fs.Arg(0), stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vesload import-jmx: %s\n", cliLine(err.Error()))
	}
	return code
}

// importJMX does the work of runImportJMX and returns the exit code with
// the error to print, if any.
func importJMX(o *importJMXOptions, path string, stdout, stderr io.Writer) (int, error) {
	p, warns, err := readPlan(path)
	if err != nil {
		return exitUsage, err
	}
	// --set errors first, so that bad usage is one line on stderr.
	if err := applySets(p, o.sets); err != nil {
		return exitUsage, err
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "vesload import-jmx: warning: %s\n", w.String())
	}
	out, err := jmx.Render(p, filepath.Base(path), warns)
	if err != nil {
		return exitRun, fmt.Errorf("render profile: %w", err)
	}
	// What is written must load: a profile that fails later, at run time,
	// would leave the user with a file to debug that they did not write.
	if _, err := profiles.Parse(out, p.Name+".yaml"); err != nil {
		return exitRun, fmt.Errorf("the imported profile does not read back: %w", err)
	}
	dest := "stdout"
	switch o.output {
	case "", "-":
		if _, err := stdout.Write(out); err != nil {
			return exitRun, fmt.Errorf("write profile: %w", err)
		}
	default:
		err := report.WriteFile(o.output, func(w io.Writer) error {
			_, err := w.Write(out)
			return err
		})
		if err != nil {
			return exitRun, fmt.Errorf("write profile %s: %w", o.output, err)
		}
		dest = o.output
	}
	fmt.Fprintf(stderr, "vesload import-jmx: %s\n", importSummary(p, len(warns), dest))
	return exitOK, nil
}

// readPlan opens and imports the plan; every error names the file, with
// line:column when the plan itself is at fault.
func readPlan(path string) (*profiles.Profile, []jmx.Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open JMeter plan: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("JMeter plan %s: is a directory", path)
	}
	return jmx.Import(f, path)
}

// applySets gives the profile the --set values, and checks the target
// they complete.
func applySets(p *profiles.Profile, sets []string) error {
	for _, s := range sets {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--set %q: want NAME=VALUE", s)
		}
		if err := p.Set(name, value); err != nil {
			return err
		}
	}
	if len(sets) > 0 && len(p.MissingVars()) == 0 {
		if _, err := p.Resolve(); err != nil {
			return fmt.Errorf("--set: %w", err)
		}
	}
	return nil
}

// importSummary is the closing line: what the profile will send, where it
// went and what is still to be given before a run.
func importSummary(p *profiles.Profile, warnings int, dest string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", p.Name, describeLoad(p.Load))
	switch warnings {
	case 0:
	case 1:
		b.WriteString("; 1 warning")
	default:
		fmt.Fprintf(&b, "; %d warnings", warnings)
	}
	fmt.Fprintf(&b, "; written to %s", dest)
	if missing := p.MissingVars(); len(missing) > 0 {
		b.WriteString("; before a run, " + setAdvice(p, missing))
	}
	return b.String()
}

// describeLoad sums a load shape up as requests, duration and mean rate.
func describeLoad(s profiles.Shape) string {
	d := s.TotalDuration()
	switch s.Kind() {
	case "":
		return "no load shape (give --rps and --duration at run time)"
	case profiles.KindClosed:
		c := s.Closed
		return fmt.Sprintf("closed model, %d concurrency steps of %s (%s in all)",
			len(c.Concurrency), profiles.FormatDuration(c.Step), profiles.FormatDuration(d))
	}
	n := s.TotalRequests()
	line := fmt.Sprintf("%d requests over %s", n, profiles.FormatDuration(d))
	if d > 0 {
		mean := math.Round(float64(n)/d.Seconds()*100) / 100
		line += ", mean " + strconv.FormatFloat(mean, 'f', -1, 64) + " rps"
	}
	return line
}
