package session

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report"
)

// progress prints the live view of a run on stderr: on a terminal one line
// rewritten every second, otherwise a plain line every ten seconds so that
// CI logs stay short.
type progress struct {
	engine.NopObserver
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

// OutputName implements engine.OutputNamer: a paused terminal costs the
// live line its updates, nothing else.
func (p *progress) OutputName() (name string, live bool) { return "live line", true }

// Second prints the engine's live figures.
func (p *progress) Second(s *engine.Progress) {
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
func progressFigures(s *engine.Progress) report.Progress {
	f := report.Progress{Elapsed: s.Elapsed, Total: s.Total, RPS: s.RPS, TargetRPS: s.TargetRPS, InFlight: s.InFlight,
		P50: s.P50, P99: s.P99, Window: engine.LiveWindow, Errors: s.Errors, PoolExhausted: s.PoolExhausted,
		Disconnected: s.Disconnected, BytesSent: s.BytesSent}
	if s.Target != nil {
		f.TargetCPU, f.TargetSampled = s.Target.CPUPct, true
	}
	return f
}

// laterQueue is how many notes may wait for a terminal that does not take
// them (a paused one); later ones are dropped and counted.
const laterQueue = 64

// later prints notes that come from the run's own goroutines (-v's
// failing exchanges, the abort guard) from a goroutine of its own, so
// that a paused terminal never holds up a worker or the guard.
type later struct {
	p       *progress
	ch      chan string
	dropped atomic.Int64
	quit    chan struct{}
	done    chan struct{}
}

func (p *progress) startLater() *later {
	l := &later{p: p, ch: make(chan string, laterQueue), quit: make(chan struct{}), done: make(chan struct{})}
	go l.print()
	return l
}

// print prints the queued notes until quit, then what is left.
func (l *later) print() {
	defer close(l.done)
	for {
		select {
		case msg := <-l.ch:
			l.p.note(msg)
		case <-l.quit:
			for {
				select {
				case msg := <-l.ch:
					l.p.note(msg)
				default:
					return
				}
			}
		}
	}
}

// note queues msg without waiting; a full queue drops it. It is safe
// from any goroutine, after close too.
func (l *later) note(msg string) {
	select {
	case l.ch <- msg:
	default:
		l.dropped.Add(1)
	}
}

// close prints what is queued, waiting up to wait, and reports the notes
// that were dropped or still not printed. Call it once.
func (l *later) close(wait time.Duration) (lost int64) {
	close(l.quit)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
	case <-t.C:
		lost = int64(len(l.ch))
	}
	return lost + l.dropped.Load()
}
