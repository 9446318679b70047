package child

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Process is a running child: its stdin, the lines of its stdout, and
// its stderr held until Close.
type Process struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	exited chan struct{}
	errs   *lockedBuffer // the child's error lines, passed on at Close
	stderr io.Writer
	once   sync.Once
}

// maxLines is how many stdout lines are held for the caller; a child says
// a few (an announcement, a result), and later ones are dropped rather
// than block it.
const maxLines = 16

// Start starts this program (os.Executable) with args as a child named
// name in errors. Its error output is held and written to stderr by
// Close, on the caller's goroutine: the parent's stderr is not the
// child's to write while the run prints.
func Start(name string, args []string, stderr io.Writer) (*Process, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start %s: find this program: %w", name, err)
	}
	return StartProgram(name, exe, args, stderr)
}

// StartProgram is Start for another program (tests use it).
func StartProgram(name, path string, args []string, stderr io.Writer) (*Process, error) {
	cmd := exec.Command(path, args...)
	cmd.SysProcAttr = attrs()
	p := &Process{name: name, cmd: cmd, lines: make(chan []byte, maxLines), exited: make(chan struct{}),
		errs: &lockedBuffer{}, stderr: stderr}
	cmd.Stderr = p.errs
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go p.read(stdout)
	go func() { _ = cmd.Wait(); close(p.exited) }()
	return p, nil
}

// read hands the child's stdout lines to ReadLine until end of file,
// never blocking the child.
func (p *Process) read(stdout io.Reader) {
	defer close(p.lines)
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			select {
			case p.lines <- bytes.TrimRight(line, "\r\n"):
			default: // nobody is reading this many lines
			}
		}
		if err != nil {
			return
		}
	}
}

// Pid is the child's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed when the child has exited, however it ended: a
// parent whose work depends on the child learns of its end at once.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitReason says how the child ended ("signal: killed", "exit status
// 2"), once Exited is closed; "" before.
func (p *Process) ExitReason() string {
	select {
	case <-p.exited:
		return p.cmd.ProcessState.String()
	default:
		return ""
	}
}

// Stdin is the pipe to the child's stdin.
func (p *Process) Stdin() io.Writer { return p.stdin }

// ErrExited is returned by ReadLine when the child ended its stdout
// (most often: it exited) before the line came.
var ErrExited = errors.New("it ended")

// ReadLine returns the child's next stdout line, waiting at most timeout
// (0: no limit). A child that ends first is an error that carries its
// last error line.
func (p *Process) ReadLine(timeout time.Duration) ([]byte, error) {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case line, ok := <-p.lines:
		if ok {
			return line, nil
		}
		select { // its stderr is complete once Wait returned
		case <-p.exited:
		case <-time.After(time.Second):
		}
		if last := p.errs.lastLine(); last != "" {
			return nil, fmt.Errorf("%s: %w: %s", p.name, ErrExited, last)
		}
		return nil, fmt.Errorf("%s: %w", p.name, ErrExited)
	case <-expired:
		return nil, fmt.Errorf("%s: no answer within %v", p.name, timeout)
	}
}

// Close asks the child to stop (end of file on its stdin), waits for it,
// kills it if it has not stopped within timeout, and writes its error
// lines out. It is safe more than once.
func (p *Process) Close(timeout time.Duration) {
	p.once.Do(func() {
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(timeout):
			if err := p.cmd.Process.Kill(); err == nil || errors.Is(err, os.ErrProcessDone) {
				<-p.exited
			}
		}
		_, _ = p.errs.WriteTo(p.stderr)
	})
}

// lockedBuffer is the child's stderr, written by exec's copier and read
// by ReadLine and Close.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) WriteTo(w io.Writer) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.WriteTo(w)
}

// lastLine is the last non-empty line written so far.
func (b *lockedBuffer) lastLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := bytes.TrimRight(b.buf.Bytes(), "\r\n")
	if i := bytes.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return string(s)
}
