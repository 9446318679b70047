package output_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
)

// linesFlags are the flags of the smallest output: --lines TARGET writes
// each closed second's counts as a line ("-" for the standard output).
// Its package holds them, their check, their Kubernetes arguments and
// the output itself; the rest of vesload learns of it from its Entry in
// loadgen/output/outputs.Table.
type linesFlags struct {
	target string
	out    io.Writer // where "-" writes; the standard output
}

func (f *linesFlags) Add(fs *pflag.FlagSet) {
	fs.StringVar(&f.target, "lines", "", "write each second's counts as a line (- for the standard output)")
}

func (f *linesFlags) Enabled() bool { return f.target != "" }

func (f *linesFlags) Check() error {
	if f.target != "" && f.target != "-" {
		return errors.New(`--lines: want "-" (the standard output)`)
	}
	return nil
}

func (f *linesFlags) KubeArgs() ([]string, error) {
	if !f.Enabled() {
		return nil, nil
	}
	return []string{"--lines", f.target}, nil
}

func (f *linesFlags) Start(r output.Run) (output.Output, error) {
	r.Note("writing each second's counts to the standard output")
	return &lines{w: f.out, label: r.Label}, nil
}

// Compile-time checks that the recipe fits the seam.
var (
	_ output.Flags  = (*linesFlags)(nil)
	_ output.Output = (*lines)(nil)
)

// lines is the started output: an engine observer that reads the
// timeline's closed seconds on a goroutine of its own, so writing a line
// never slows the run.
type lines struct {
	engine.NopObserver
	w       io.Writer
	label   string
	written int
}

func (l *lines) OutputName() (string, bool) { return "--lines", false }

func (l *lines) Timeline(s result.Second, _ *result.Tally) {
	fmt.Fprintf(l.w, "%s second %d: %d sent, %d ok\n", l.label, s.T, s.Sent, s.OK)
	l.written++
}

func (l *lines) Finish(res *result.Result, _ time.Duration) {
	res.Warnings = append(res.Warnings, fmt.Sprintf("--lines wrote %d seconds", l.written))
}

func (l *lines) Close() {}

// Example_addAnOutput is the recipe for a new output: a package with its
// Flags (registered, checked, rendered for the pods) and its Output (an
// engine observer that adds what it did to the result), and one line in
// outputs.Table: output.Entry{Flag: "lines", Doc: ..., New: ...}. The
// session, the command line and `vesload kube` then handle it as they
// handle InfluxDB and remote write. Here the steps they take run by hand.
func Example_addAnOutput() {
	entry := output.Entry{Flag: "lines", Doc: "`--lines -`: each second's counts as a line",
		New: func() output.Flags { return &linesFlags{out: os.Stdout} }}

	// The command line: register, parse, check.
	flags := entry.New()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	flags.Add(fs)
	if err := fs.Parse([]string{"--lines", "-"}); err != nil || flags.Check() != nil || !flags.Enabled() {
		fmt.Println("refused")
		return
	}
	kube, _ := flags.KubeArgs()
	fmt.Println("pods run with:", strings.Join(kube, " "))

	// The session: start it, let the engine feed it, finish it.
	out, err := flags.Start(output.Run{Label: "fault", Note: func(s string) { fmt.Println("note:", s) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	tally := result.NewTally()
	out.Begin(time.Unix(0, 0))
	out.Timeline(result.Second{T: 0, Sent: 100, OK: 99}, &tally)
	out.Timeline(result.Second{T: 1, Sent: 100, OK: 100}, &tally)
	var res result.Result
	out.Finish(&res, output.FinalWait)
	fmt.Println(res.Warnings)
	// Output:
	// pods run with: --lines -
	// note: writing each second's counts to the standard output
	// fault second 0: 100 sent, 99 ok
	// fault second 1: 100 sent, 100 ok
	// [--lines wrote 2 seconds]
}
