// Package builtin is the built-in collector emulator of runs that name
// no target: the vesload binary itself started as `vesload serve`, a
// child process (internal/child) that ends with the run however the run
// ends, with REST and HV-VES listeners and an embedded Kafka broker they
// publish to, as the Kafka generation of the collector does. It is a
// process of its own so that its CPU and memory are not counted as the
// generator's. The package owns the child's arguments and the one line
// it announces its addresses in; it knows nothing of what the run sends.
package builtin

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/vesload/vesload/internal/child"
	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// Addrs is the one JSON line `vesload serve --announce` prints on its
// stdout once every listener is up: the contract between the emulator
// process and the run that started it.
type Addrs struct {
	PID       int    `json:"pid"`
	URL       string `json:"url"`        // REST base URL
	HV        string `json:"hv"`         // HV-VES HOST:PORT
	HVMonitor string `json:"hv_monitor"` // HV-VES /stats and /metrics HOST:PORT
	Kafka     string `json:"kafka"`      // embedded broker HOST:PORT
	Seed      uint64 `json:"seed"`       // of its random choices (serve --seed), drawn when not given
}

// Args are the child's arguments: every listener on a free loopback
// port, answers before the broker acknowledges (the current collector),
// a broker that keeps a bounded backlog, only errors on stderr.
func Args() []string {
	return []string{"serve", "--quiet", "--announce", "--stop-on-stdin-eof",
		"--listen", "127.0.0.1:0", "--compat", "kafka", "--kafka-embedded", "127.0.0.1:0", "--kafka-bounded",
		"--hv-listen", "127.0.0.1:0", "--hv-monitor", "127.0.0.1:0"}
}

// startTimeout bounds how long the child may take to announce its
// addresses.
const startTimeout = 20 * time.Second

// stopTimeout is how long the child may take to flush and stop once
// asked, before it is killed.
const stopTimeout = 15 * time.Second

// Emulator is a running built-in emulator.
type Emulator struct {
	addrs Addrs
	proc  *child.Process
}

// Start starts the built-in emulator as a child process of this binary
// and waits for its addresses; its error lines go to stderr when it
// stops. serve are more of `vesload serve`'s flags, laid after Args: a
// capacity search bounds the emulator's service capacity with them
// (--backend-pool, --publish-time).
func Start(stderr io.Writer, serve ...string) (*Emulator, error) {
	proc, err := child.Start("the built-in emulator", append(Args(), serve...), stderr)
	if err != nil {
		return nil, err
	}
	e := &Emulator{proc: proc}
	line, err := proc.ReadLine(startTimeout)
	if err == nil {
		err = e.addrs.parse(line)
	}
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("start %w", err) // "start the built-in emulator: …"
	}
	e.addrs.PID = proc.Pid()
	return e, nil
}

// parse reads the announced line, which must name every listener.
func (a *Addrs) parse(line []byte) error {
	if err := json.Unmarshal(line, a); err != nil || a.URL == "" || a.HV == "" || a.Kafka == "" {
		return fmt.Errorf("the built-in emulator: it announced %q (%v)", line, err)
	}
	return nil
}

// URL is the emulator's REST base URL.
func (e *Emulator) URL() string { return e.addrs.URL }

// HVAddr is the emulator's HV-VES HOST:PORT.
func (e *Emulator) HVAddr() string { return e.addrs.HV }

// Brokers is the embedded Kafka broker's HOST:PORT.
func (e *Emulator) Brokers() string { return e.addrs.Kafka }

// PID is the emulator's process id: a run samples its CPU and memory as
// the target's when no other sampler of the target is asked for.
func (e *Emulator) PID() int32 { return int32(e.addrs.PID) }

// Exited is closed when the emulator's process has exited: a run against
// it has no target left (its broker went with it).
func (e *Emulator) Exited() <-chan struct{} { return e.proc.Exited() }

// ExitReason says how the emulator's process ended ("signal: killed"),
// once Exited is closed.
func (e *Emulator) ExitReason() string { return e.proc.ExitReason() }

// Seed is the seed of the emulator's random choices (error rate, jitter,
// publish drop), which `vesload serve --seed` repeats.
func (e *Emulator) Seed() uint64 { return e.addrs.Seed }

// Describe is the one line that announces the emulator to the user.
func (e *Emulator) Describe() string {
	return fmt.Sprintf("built-in emulator: process %d (vesload serve), REST %s, HV-VES %s, Kafka %s, seed %d",
		e.addrs.PID, e.addrs.URL, e.addrs.HV, e.addrs.Kafka, e.addrs.Seed)
}

// HVReceiver waits (up to settle) until the emulator has read every
// frame written, then reads its counters as the result's HV-VES
// receiver; nil when they cannot be read, at once when the emulator has
// exited (its counters went with it).
func (e *Emulator) HVReceiver(written int64, settle time.Duration) *result.HVReceiver {
	select {
	case <-e.Exited():
		return nil
	default:
	}
	st, err := hvemu.AwaitStats(e.addrs.HVMonitor, written, settle)
	if err != nil {
		return nil
	}
	dup := st.DuplicateEventIDs
	return &result.HVReceiver{Source: "emulator", Received: st.Received, Accepted: st.Accepted,
		Dropped: st.Dropped, Lost: max(written-st.Received, 0), Extra: max(st.Received-written, 0), Duplicates: &dup, TravelAvgMs: st.TravelMs.Avg,
		TravelP50Ms: st.TravelMs.P50, TravelP99Ms: st.TravelMs.P99, TravelMaxMs: st.TravelMs.Max}
}

// Close asks the child to stop (end of file on its stdin), waits for it,
// kills it if it does not stop in time, and passes its error lines on.
func (e *Emulator) Close() { e.proc.Close(stopTimeout) }
