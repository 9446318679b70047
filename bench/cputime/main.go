// Command cputime runs a command and writes the CPU time it used, user and
// system, and its peak resident memory: the figures GNU time's "%U %S %M"
// gives, with CPU time to the microsecond where GNU time rounds it to
// 10 ms. bench/peers.sh divides a run's CPU time by its requests, and a
// light tool at 100 requests a second for 10 s uses a few tens of
// milliseconds in all, of which one step of 10 ms is a large share.
//
//	cputime -o FILE -- COMMAND [ARG...]
//
// FILE receives one line, "USER_S SYS_S MAXRSS_KIB" (standard error
// without -o). The command's standard streams are cputime's own, and
// cputime exits with its exit code, 128+N when signal N ended it, or 2 on
// bad usage and 1 when the command cannot be started. SIGINT, SIGTERM and
// SIGQUIT are left to the command (a timeout signals the whole process
// group): cputime waits for it and still writes its figures.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := pflag.NewFlagSet("cputime", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false) // the command's own flags are not cputime's
	out := fs.StringP("output", "o", "", "write the figures to this file")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(stderr, "cputime:", err)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "cputime: usage: cputime [-o FILE] COMMAND [ARG...]")
		return 2
	}
	// Caught and dropped, so that they end the command, not the meter.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	defer signal.Stop(sigs)

	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "cputime:", err)
		return 1
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(stderr, "cputime:", err)
		return 1
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(stderr, "cputime: this system gives no resource usage of a child")
		return 1
	}
	line := fmt.Sprintf("%.6f %.6f %d\n", float64(ru.Utime.Nano())/1e9, float64(ru.Stime.Nano())/1e9, ru.Maxrss)
	if *out == "" {
		fmt.Fprint(stderr, line)
	} else if err := os.WriteFile(*out, []byte(line), 0o644); err != nil {
		fmt.Fprintln(stderr, "cputime:", err)
		return 1
	}
	return exitCode(cmd.ProcessState)
}

// exitCode is the command's exit code as a shell gives it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
