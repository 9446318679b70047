package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/vesload/vesload/report/result"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// emulator is the built-in collector emulator of runs that name no
// target: the same binary started as `vesload serve` in a process of its
// own (REST and HV-VES listeners, an embedded Kafka broker they publish
// to, as the Kafka generation of the collector does), so that its CPU and
// memory are not counted as the generator's. The child ends with the
// run, and also when vesload dies, however it dies: on Linux the kernel
// signals it when its parent goes (parent-death signal), and everywhere
// it stops when its stdin, a pipe from the parent, reaches end of file.
type emulator struct {
	addrs  emulatorAddrs
	cmd    *exec.Cmd
	stdin  io.Closer
	exited chan struct{}
	errs   *bytes.Buffer // the child's error lines, passed on at Close
	stderr io.Writer
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
// binary; its error lines go to stderr.
func startEmulator(stderr io.Writer) (*emulator, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start the built-in emulator: find this program: %w", err)
	}
	cmd := exec.Command(exe, emulatorArgs()...)
	cmd.SysProcAttr = childAttrs()
	// The child's error lines are held and written out by Close, on the
	// caller's goroutine: the run's stderr is not the child's to write.
	errs := &bytes.Buffer{}
	cmd.Stderr = errs
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start the built-in emulator: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start the built-in emulator: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the built-in emulator: %w", err)
	}
	e := &emulator{cmd: cmd, stdin: stdin, exited: make(chan struct{}), errs: errs, stderr: stderr}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout) // nothing more is expected; never block the child
	}()
	go func() { _ = cmd.Wait(); close(e.exited) }()
	select {
	case line, ok := <-lines:
		if ok {
			err = json.Unmarshal([]byte(line), &e.addrs)
		}
		if !ok || err != nil || e.addrs.URL == "" || e.addrs.HV == "" || e.addrs.Kafka == "" {
			err = fmt.Errorf("start the built-in emulator: it announced %q (%v)", line, err)
		}
	case <-time.After(emulatorStartTimeout):
		err = fmt.Errorf("start the built-in emulator: no addresses within %v", emulatorStartTimeout)
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	e.addrs.PID = cmd.Process.Pid
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

// hvStats reads the HV-VES emulator's counters.
func (e *emulator) hvStats(ctx context.Context) (hvemu.Stats, error) {
	var st hvemu.Stats
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+e.addrs.HVMonitor+"/stats", nil)
	if err != nil {
		return st, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, fmt.Errorf("built-in emulator /stats: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("built-in emulator /stats: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("built-in emulator /stats: %w", err)
	}
	return st, nil
}

// hvView waits (up to settle) until the emulator has read every frame
// written, then reads its counters; nil when they cannot be read.
func (e *emulator) hvView(written int64, settle time.Duration) *result.HVReceiver {
	ctx, cancel := context.WithTimeout(context.Background(), settle+5*time.Second)
	defer cancel()
	deadline := time.Now().Add(settle)
	st, err := e.hvStats(ctx)
	for (err != nil || st.Received < written) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		st, err = e.hvStats(ctx)
	}
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
func (e *emulator) Close() {
	_ = e.stdin.Close()
	select {
	case <-e.exited:
	case <-time.After(emulatorStopTimeout):
		if err := e.cmd.Process.Kill(); err == nil || errors.Is(err, os.ErrProcessDone) {
			<-e.exited
		}
	}
	select {
	case <-e.exited: // Wait has copied all of the child's stderr
		_, _ = e.errs.WriteTo(e.stderr)
	default:
	}
}
