package session

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// An HV-VES run's live line shows the data rate of the last second and
// the disconnected messages, not the pool (which never runs out there).
func TestProgressLineOfMessages(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	p := newProgress(&out, false, time.Minute)
	p.messages = true
	p.lastLine = -time.Hour // print every call, as on a CI log's first line
	p.Second(&engine.Progress{Elapsed: 10 * time.Second, Total: time.Minute, BytesSent: 40e6, RPS: 600, TargetRPS: 600})
	p.lastLine = -time.Hour
	p.Second(&engine.Progress{Elapsed: 11 * time.Second, Total: time.Minute, BytesSent: 44.9e6, RPS: 600, TargetRPS: 600,
		Errors: 7, Disconnected: 5})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for _, want := range []string{"600 msg/s (target 600/s)", "4.90 MB/s", "errors 7  disconnected 5"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("line %q lacks %q", lines[1], want)
		}
	}
	if strings.Contains(lines[1], "pool exhausted") {
		t.Errorf("line %q speaks of the pool", lines[1])
	}
}

// The live line gets the engine's window and the target's CPU when it was
// sampled, and no target figure when it was not.
func TestProgressLineOfATargetSampled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		target *engine.Reading
		want   string
		not    string
	}{
		{&engine.Reading{CPUPct: 41.6}, "target cpu 42%", ""},
		{nil, "(last 10s)", "target cpu"},
	} {
		var out strings.Builder
		p := newProgress(&out, false, time.Minute)
		p.lastLine = -time.Hour
		p.Second(&engine.Progress{Elapsed: 10 * time.Second, Total: time.Minute, RPS: 100, TargetRPS: 100, Target: tc.target})
		line := out.String()
		if !strings.Contains(line, tc.want) || !strings.Contains(line, "(last 10s)") {
			t.Errorf("line %q lacks %q or the window", line, tc.want)
		}
		if tc.not != "" && strings.Contains(line, tc.not) {
			t.Errorf("line %q holds %q", line, tc.not)
		}
	}
}

// Notes from the run's goroutines never wait for the terminal: past the
// queue they are dropped and counted.
func TestLaterNotesNeverWait(t *testing.T) {
	t.Parallel()
	w := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	p := newProgress(w, false, time.Second)
	l := p.startLater()
	l.note("the first, which the terminal holds")
	<-w.entered
	for i := range laterQueue + 10 {
		l.note(fmt.Sprintf("note %d", i)) // returns at once though the writer is stuck
	}
	close(w.release)
	if lost := l.close(5 * time.Second); lost != 10 {
		t.Errorf("%d notes lost, want the 10 past the queue", lost)
	}
	if n := strings.Count(w.String(), "vesload: note "); n != laterQueue {
		t.Errorf("%d notes printed once released, want the %d queued", n, laterQueue)
	}
}

// gate is a writer stuck until released, as a paused terminal is.
type gate struct {
	entered, release chan struct{}
	once             sync.Once
	mu               sync.Mutex
	b                strings.Builder
}

func (g *gate) Write(p []byte) (int, error) {
	g.once.Do(func() { close(g.entered) })
	<-g.release
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Write(p)
}

func (g *gate) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.String()
}
