package session

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
)

// progress prints the live view of a run on stderr: on a terminal one line
// rewritten every second, otherwise a plain line every ten seconds so that
// CI logs stay short.
type progress struct {
	loadgen.NopObserver
	mu       sync.Mutex
	w        io.Writer
	quiet    bool
	terminal bool
	total    time.Duration
	lastLine time.Duration
	dirty    bool // a live line is on screen and must be ended
	// messages says the run sends HV-VES messages: the line shows the
	// data rate and the disconnected messages instead of the pool.
	messages bool
	last     report.Progress // the previous second's figures, for rates
}

// newProgress prints on w; quiet keeps the live line off it (notes are
// still printed), total is the run's planned length.
func newProgress(w io.Writer, quiet bool, total time.Duration) *progress {
	return &progress{w: w, quiet: quiet, terminal: isTerminal(w), total: total}
}

// isTerminal reports whether w is a terminal: the live line is rewritten
// in place there, and the summary is in colour.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Second prints the engine's live figures.
func (p *progress) Second(s *loadgen.Progress) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fig := progressFigures(s)
	line := report.ProgressLine(&fig, &p.last, p.messages)
	p.last = fig
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.dirty = true
		return
	}
	if s.Elapsed-p.lastLine >= 10*time.Second {
		p.lastLine = s.Elapsed
		fmt.Fprintln(p.w, line)
	}
}

// note prints a message on its own line, ending a live line first.
func (p *progress) note(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dirty {
		fmt.Fprintln(p.w)
		p.dirty = false
	}
	fmt.Fprintf(p.w, "vesload: %s\n", msg)
}

// done ends the live line before the summary is printed.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dirty {
		fmt.Fprintln(p.w)
		p.dirty = false
	}
}

// progressFigures copies what the live line shows from the engine's
// figures of a second (report renders them without importing the engine).
func progressFigures(s *loadgen.Progress) report.Progress {
	f := report.Progress{Elapsed: s.Elapsed, Total: s.Total, RPS: s.RPS, TargetRPS: s.TargetRPS, InFlight: s.InFlight,
		P50: s.P50, P99: s.P99, Window: loadgen.LiveWindow, Errors: s.Errors, PoolExhausted: s.PoolExhausted,
		Disconnected: s.Disconnected, BytesSent: s.BytesSent}
	if s.Target != nil {
		f.TargetCPU, f.TargetSampled = s.Target.CPUPct, true
	}
	return f
}
