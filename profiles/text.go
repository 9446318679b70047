package profiles

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/vesload/vesload/report/table"
)

// WriteBuiltins writes one line per built-in profile: its name, padded,
// and the first line of its description (`vesload profiles`), so that
// the starting points of most scenarios are easy to see.
func WriteBuiltins(w io.Writer) error {
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Left("")}}
	for _, in := range Builtins() {
		tb.Add(in.Name, in.Description)
	}
	for _, line := range tb.Plain("") {
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// BuiltinNames are the built-in profiles' names, comma-separated in the
// order Builtins lists them, for messages that say what may be named.
func BuiltinNames() string { return strings.Join(builtinNames(), ", ") }

// MissingAdvice says how to give the variables the profile still needs
// before a run, "set WORKER_IP with --url or --set WORKER_IP=…" (--url
// only when a variable is in the target URL); empty when none is
// missing. The import of a JMeter plan and the check of a profile end
// with it.
func (p *Profile) MissingAdvice() string {
	missing := p.MissingVars()
	if len(missing) == 0 {
		return ""
	}
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

// SetAll gives the profile each NAME=VALUE of sets (`--set`) and, once
// no variable is missing, checks the target they complete; a profile
// written with the values must then load.
func (p *Profile) SetAll(sets []string) error {
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

// Describe sums a load shape up as requests, duration and mean rate
// ("60000 requests over 10m, mean 100 rps"), or the steps of a closed
// model, for a reader who wants to know what a profile will send.
func (s Shape) Describe() string {
	d := s.TotalDuration()
	switch s.Kind() {
	case "":
		return "no load shape (give --rps and --duration at run time)"
	case KindClosed:
		c := s.Closed
		return fmt.Sprintf("closed model, %d concurrency steps of %s (%s in all)",
			len(c.Concurrency), FormatDuration(c.Step), FormatDuration(d))
	}
	n := s.TotalRequests()
	line := fmt.Sprintf("%d requests over %s", n, FormatDuration(d))
	if d > 0 {
		mean := math.Round(float64(n)/d.Seconds()*100) / 100
		line += ", mean " + strconv.FormatFloat(mean, 'f', -1, 64) + " rps"
	}
	return line
}
