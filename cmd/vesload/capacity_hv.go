package main

import (
	"io"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen/transport/hv"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
	"github.com/vesload/vesload/session"
	"github.com/vesload/vesload/testserver/builtin"
)

const capacityHVSynopsis = "vesload capacity hv [--addr HOST:PORT] [--producers N | --vary producers --interval D] [--size B] [--slo GATE]... [--start RATE] [--max RATE] [--step-duration D] [--warmup D] [--precision P%] [--budget D] [-o FILE] [--markdown FILE] [--html FILE]"

// capacityHVRunFlags are the flags of `vesload hv` an HV-VES step takes:
// the collector, the producers and their messages, TLS, the receiver's
// and the target's observers, the delivery follower. The rate and the
// duration are the search's; the run id is each step's own.
var capacityHVRunFlags = []string{"profile", "addr", "producers", "size", "domain", "cacert", "cert", "key", "cert-pass-file",
	"insecure", "dial-timeout", "write-timeout", "settle", "label", "target-pid", "target-process", "target-metrics",
	"target-metrics-user", "target-metrics-password-file", "prom-url", "prom-query", "consume", "consume-grace",
	"consume-group", "kafka-user", "kafka-password-file", "kafka-mechanism", "kafka-cacert", "kafka-cert", "kafka-key",
	"kafka-insecure"}

// capacityHVFlags are the flags of `vesload capacity hv`: the search's
// own over messages a second, then the producers' flags a step takes.
func capacityHVFlags(o *capacityOptions) *pflag.FlagSet {
	fs := newFlagSet("capacity hv")
	searchFlags(fs, o, "messages (with --vary producers: producers)", "'"+strings.Join(hvSLOs(false), "', '")+"' and, when the messages are followed into Kafka (the built-in emulator, --consume), '"+hvTravelSLO+"'", 100, 100000)
	fs.StringVar(&o.vary, "vary", varyRate, "what the search changes: 'rate', the messages a second over --producers, or 'producers', each sending one message every --interval (the collector's own performance tests add producers)")
	fs.Float64Var(&o.emuProcess, "emulator-process-rate", 0, "the built-in emulator's --hv-process-rate")
	_ = fs.MarkHidden("emulator-process-rate") // declared above: cannot fail
	run := hvFlags(&o.hv)
	for _, name := range append(capacityHVRunFlags, "interval") {
		fs.AddFlag(run.Lookup(name))
	}
	fs.BoolVarP(&o.run.quiet, "quiet", "q", false, "no line per step on stderr")
	return fs
}

// hvSLOs are the default SLOs of an HV-VES step: every message written
// within half a second of its due time (a collector that stops reading
// blocks the producers once the sockets' buffers are full), at most one
// in a thousand failed, and, when the messages are followed into Kafka,
// each there within 250 ms of its due time. The last is what finds a
// collector that reads on but handles less than it is sent: its queue,
// and so the travel time, grows by the excess over the step (5 % over a
// 10 s step is half a second behind), long before the buffers fill.
func hvSLOs(followed bool) []string {
	slos := []string{"p99<500ms", "error_rate<0.1%"}
	if followed {
		slos = append(slos, hvTravelSLO)
	}
	return slos
}

// hvTravelSLO is the default bound on the travel time into Kafka.
const hvTravelSLO = metric.E2EP99 + "<250ms"

// defaultHVSLOs are hvSLOs for the steps this search runs.
func (c *capacitySearch) defaultHVSLOs() []string { return hvSLOs(c.whole().Delivery) }

// checkHV checks the producers' flags as `vesload hv` would at the first
// step's rate, before an emulator is started, and keeps the labels.
func (c *capacitySearch) checkHV() error {
	if err := c.checkVary(); err != nil {
		return err
	}
	o := c.o.hv // a copy: the check resolves a profile and a run id the steps redo
	o.rate, o.duration = c.o.start, c.o.warmup+c.o.step
	cfg, _, _, err := hvConfig(&o, c.hvChanged)
	if err != nil {
		return err
	}
	if err := o.run.checkObservers(); err != nil {
		return err
	}
	if cfg.Addr == "" {
		if err := refuseForEmulator(&o); err != nil {
			return err
		}
		cfg.Addr = "127.0.0.1:1" // checked before an emulator is started for it
	} else if c.o.emuProcess > 0 {
		return usagef("--emulator-process-rate bounds the built-in emulator: give no --addr")
	}
	if err := cfg.Check(); err != nil {
		return usagef("%v", err)
	}
	c.hvShape = cfg
	c.labels, err = parseLabels(o.run.profileLabels, o.run.labels)
	return err
}

// The quantities an HV-VES search varies (--vary).
const (
	varyRate      = "rate"
	varyProducers = result.VaryProducers
)

// hvChanged says which producer flags were given: the duration always
// is, with the rate or the producers and their interval, being the
// search's.
func (c *capacitySearch) hvChanged(name string) bool {
	if c.o.vary == varyProducers {
		return name == "producers" || name == "interval" || name == "duration" || c.changed(name)
	}
	return name == "rate" || name == "duration" || c.changed(name)
}

// checkVary reads --vary: with producers, --start and --max count
// producers (2 and 1,000 by default) and each step's rate is a whole
// number of them (capacity.Options.Quantum).
func (c *capacitySearch) checkVary() error {
	o := c.o
	switch o.vary {
	case varyRate:
		if c.changed("interval") {
			return usagef("--interval: the rate sets it; give --vary producers to add producers of one message every --interval")
		}
		return nil
	case varyProducers:
	default:
		return usagef("--vary %q: want rate or producers", o.vary)
	}
	if c.changed("producers") {
		return usagef("--producers: --vary producers searches them; give --start and --max in producers")
	}
	if o.hv.interval <= 0 {
		return usagef("--interval %v: want a positive duration", o.hv.interval)
	}
	if !c.changed("start") {
		o.start = 2
	}
	if !c.changed("max") {
		o.max = 1000
	}
	if o.start != math.Trunc(o.start) || o.max != math.Trunc(o.max) || o.start < 1 || o.max > hv.MaxProducers {
		return usagef("--start %g and --max %g with --vary producers: want whole producers from 1 to %d", o.start, o.max, hv.MaxProducers)
	}
	per := 1 / o.hv.interval.Seconds()
	o.start, o.max, o.hv.producers = o.start*per, o.max*per, int(o.start)
	return nil
}

// perProducer is the messages a second of one producer when the search
// adds producers; 0 when it varies the rate.
func (c *capacitySearch) perProducer() float64 {
	if c.o.vary != varyProducers {
		return 0
	}
	return 1 / c.o.hv.interval.Seconds()
}

// prepareHV starts the built-in HV-VES emulator once when no --addr is
// given; each step is a `vesload hv` at the step's rate for the step's
// length, its messages followed into the emulator's Kafka (or --consume)
// so that a collector that queues is seen falling behind.
func (c *capacitySearch) prepareHV() error {
	h := &c.o.hv
	addr := h.addr
	if addr == "" {
		emu, err := builtin.Start(c.stderr, c.emulatorArgs()...)
		if err != nil {
			return err
		}
		c.emu, h.emulator, addr = emu, emu, emu.HVAddr()
	}
	c.url = hv.Target(addr, h.tls.Enabled()) // as each step's result names it
	c.setUp = func(rate float64, out io.Writer) (*scenario.Plan, session.Options, func(), error) {
		o := *h
		o.rate, o.duration, o.run.quiet = rate, c.o.warmup+c.o.step, true
		if per := c.perProducer(); per > 0 {
			o.producers = int(math.Round(rate / per))
		}
		return hvSetUp(&o, c.hvChanged, out)
	}
	return nil
}
