package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/vesload/vesload/internal/child"
	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// emulator is the built-in collector emulator of runs that name no
// target: the same binary started as `vesload serve`, a child process
// (internal/child) that ends with the run however the run ends (REST and
// HV-VES listeners, an embedded Kafka broker they publish to, as the
// Kafka generation of the collector does), so that its CPU and memory
// are not counted as the generator's.
type emulator struct {
	addrs emulatorAddrs
	proc  *child.Process
}

// emulatorAddrs is the one line `vesload serve --announce` prints on its
// stdout once every listener is up.
type emulatorAddrs struct {
	PID       int    `json:"pid"`
	URL       string `json:"url"`        // REST base URL
	HV        string `json:"hv"`         // HV-VES HOST:PORT
	HVMonitor string `json:"hv_monitor"` // HV-VES /stats and /metrics HOST:PORT
	Kafka     string `json:"kafka"`      // embedded broker HOST:PORT
	Seed      uint64 `json:"seed"`       // of its random choices (serve --seed), drawn when not given
}

// emulatorStartTimeout bounds how long the child may take to announce
// its addresses.
const emulatorStartTimeout = 20 * time.Second

// emulatorArgs are the child's arguments: every listener on a free
// loopback port, answers before the broker acknowledges (the current
// collector), a broker that keeps a bounded backlog, only errors on
// stderr.
func emulatorArgs() []string {
	return []string{"serve", "--quiet", "--announce", "--stop-on-stdin-eof",
		"--listen", "127.0.0.1:0", "--compat", compatKafka, "--kafka-embedded", "127.0.0.1:0", "--kafka-bounded",
		"--hv-listen", "127.0.0.1:0", "--hv-monitor", "127.0.0.1:0"}
}

// startEmulator starts the built-in emulator as a child process of this
// binary; its error lines go to stderr when it stops.
func startEmulator(stderr io.Writer) (*emulator, error) {
	proc, err := child.Start("the built-in emulator", emulatorArgs(), stderr)
	if err != nil {
		return nil, err
	}
	e := &emulator{proc: proc}
	line, err := proc.ReadLine(emulatorStartTimeout)
	if err == nil {
		if jerr := json.Unmarshal(line, &e.addrs); jerr != nil || e.addrs.URL == "" || e.addrs.HV == "" || e.addrs.Kafka == "" {
			err = fmt.Errorf("the built-in emulator: it announced %q (%v)", line, jerr)
		}
	}
	if err != nil {
		e.Close()
		return nil, fmt.Errorf("start %w", err) // "start the built-in emulator: …"
	}
	e.addrs.PID = proc.Pid()
	return e, nil
}

// URL is the emulator's REST base URL.
func (e *emulator) URL() string { return e.addrs.URL }

// HVAddr is the emulator's HV-VES HOST:PORT.
func (e *emulator) HVAddr() string { return e.addrs.HV }

// Brokers is the embedded Kafka broker's HOST:PORT.
func (e *emulator) Brokers() string { return e.addrs.Kafka }

// Seed is the seed of the emulator's random choices (error rate, jitter,
// publish drop), which `vesload serve --seed` repeats.
func (e *emulator) Seed() uint64 { return e.addrs.Seed }

// describe is the one line that announces the emulator.
func (e *emulator) describe() string {
	return fmt.Sprintf("built-in emulator: process %d (vesload serve), REST %s, HV-VES %s, Kafka %s, seed %d",
		e.addrs.PID, e.addrs.URL, e.addrs.HV, e.addrs.Kafka, e.addrs.Seed)
}

// hvView waits (up to settle) until the emulator has read every frame
// written, then reads its counters; nil when they cannot be read.
func (e *emulator) hvView(written int64, settle time.Duration) *result.HVReceiver {
	st, err := hvemu.AwaitStats(e.addrs.HVMonitor, written, settle)
	if err != nil {
		return nil
	}
	dup := st.DuplicateEventIDs
	return &result.HVReceiver{Source: "emulator", Received: st.Received, Accepted: st.Accepted,
		Dropped: st.Dropped, Lost: written - st.Received, Duplicates: &dup, TravelAvgMs: st.TravelMs.Avg,
		TravelP50Ms: st.TravelMs.P50, TravelP99Ms: st.TravelMs.P99, TravelMaxMs: st.TravelMs.Max}
}

// emulatorStopTimeout is how long the child may take to flush and stop
// once asked, before it is killed.
const emulatorStopTimeout = 15 * time.Second

// Close asks the child to stop (end of file on its stdin), waits for it,
// kills it if it does not stop in time, and passes its error lines on.
func (e *emulator) Close() { e.proc.Close(emulatorStopTimeout) }
