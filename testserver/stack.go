package testserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	hvemu "github.com/vesload/vesload/testserver/hv"
	"github.com/vesload/vesload/testserver/publish"
)

// Stack is what `vesload serve` runs beside the REST emulator: the Kafka
// generation (Publish), the HV-VES emulator with its monitoring endpoints
// (HV, HVMonitor) and the throughput sink of `vesload probe` (Sink). Each
// is off when its settings leave it so (publish.Config.Enabled, an empty
// address).
type Stack struct {
	Publish   publish.Config
	HV        hvemu.Options
	HVMonitor string
	Sink      string
}

// Prepare settles what in leaves open for a stack and checks them both,
// as `vesload serve` is given them: compat CompatKafka becomes CompatV72
// with a publisher that answers before the broker acknowledges; a zero
// seed becomes a random one, which the publisher shares and the start
// lines name, so that a run can be repeated exactly. It returns the
// emulator's Options (Input.Check); every error names its flag.
func (s *Stack) Prepare(in *Input) (Options, error) {
	if strings.EqualFold(in.Compat, CompatKafka) {
		in.Compat, s.Publish.BeforeAck = CompatV72, true
	}
	for in.Seed == 0 { // 0 means random: pick one here, so the start lines can name it
		in.Seed = rand.Uint64()
	}
	s.Publish.Seed = in.Seed
	opts, err := in.Check()
	for _, check := range []func() error{s.Publish.Check, s.HV.Check} {
		if err == nil {
			err = check()
		}
	}
	return opts, err
}

// Addrs are the addresses of a running Stack and its REST emulator.
type Addrs struct {
	URL       string // REST base URL
	Kafka     string // embedded or external brokers
	HV        string // HV-VES HOST:PORT
	HVMonitor string // HV-VES /stats and /metrics HOST:PORT
}

// RunStack starts s, then serves the emulator with o until ctx ends (Run,
// whose companion is the Kafka generation), and closes everything. ready,
// when not nil, gets every address once all listen (it replaces
// r.Ready). It exists so that `vesload serve` and the built-in emulator
// of a run, which is the same command as a child process, start and stop
// the same set of listeners in one order: HV-VES emulator accepted
// messages are published as the REST emulator's are.
func RunStack(ctx context.Context, o Options, s Stack, r RunOptions, ready func(Addrs)) error {
	gen, err := publish.StartGeneration(s.Publish)
	if err != nil {
		return err
	}
	var a Addrs
	closeGen := func() {}
	if gen != nil {
		s.HV.OnMessage = func(m *hvemu.Message) { gen.PublishRecord(m.Topic, m.Payload) }
		o.Publish, r.Companion, a.Kafka = gen.Publish, gen, gen.Brokers()
		closeGen = func() { _ = gen.Close() } // a start's error is the one to report
	}
	if s.HV.Addr != "" {
		hv, err := hvemu.StartMonitored(s.HV, s.HVMonitor)
		if err != nil {
			closeGen()
			return err
		}
		defer hv.Close()
		a.HV, a.HVMonitor = hv.Addr(), hv.MonitorAddr()
	}
	if s.Sink != "" {
		sink, err := StartSink(s.Sink)
		if err != nil {
			closeGen()
			return fmt.Errorf("--sink: %w", err)
		}
		defer sink.Close()
		if r.Logf != nil {
			r.Logf("throughput sink on %s (vesload probe --sink)", sink.URL())
		}
	}
	r.Ready = func(url string) {
		a.URL = url
		if ready != nil {
			ready(a)
		}
	}
	return Run(ctx, o, r)
}
