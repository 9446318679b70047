package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/testserver"
	"github.com/vesload/vesload/testserver/builtin"
	hvemu "github.com/vesload/vesload/testserver/hv"
	"github.com/vesload/vesload/testserver/publish"
)

const serveSynopsis = "vesload serve [flags]"

// runServe runs the VES collector emulator until SIGINT or SIGTERM.
func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serveFlags are the parsed flags of `vesload serve`.
type serveFlags struct {
	in     testserver.Input
	st     testserver.Stack
	child  builtin.Child
	quiet  bool
	preset string
}

func (f *serveFlags) declare(fs *pflag.FlagSet) {
	o := &f.in.Options
	cliflag.AddrVar(fs, &o.Addr, "listen", "127.0.0.1:8080", "address to listen on (`HOST:PORT`; \":8080\" listens on every interface)")
	fs.StringVar(&o.Compat, "compat", testserver.CompatV72, "answers as the collector's response compatibility setting: v7.2 (success 202, publish failure 500) or legacy (200, 503); kafka: v7.2 answered before the broker acknowledges")
	fs.StringVar(&f.in.AuthText, "auth", "", "require HTTP basic auth `USER:PASS` (visible in process listings: prefer --auth-file)")
	fs.StringVar(&f.in.AuthFile, "auth-file", "", "read USER:PASS for basic auth from `FILE`")
	fs.StringVar(&o.TLSCertFile, "tls-cert", "", "serve HTTPS with this PEM certificate `FILE` (needs --tls-key)")
	fs.StringVar(&o.TLSKeyFile, "tls-key", "", "PEM private key `FILE` of --tls-cert")
	fs.IntVar(&o.AuthCost, "auth-cost", 10, "BCrypt cost of the basic-auth check, paid by every basic-auth request as in the collector's certBasicAuth mode (4..16; 0: a plain comparison)")
	fs.StringVar(&o.ClientCAFile, "client-ca", "", "with --tls-cert and auth, let in clients whose certificate this PEM CA `FILE` verifies, without basic auth (certBasicAuth)")
	cliflag.AddrVar(fs, &o.HTTPAddr, "http-listen", "", "with --tls-cert and auth, also listen for plain HTTP on `HOST:PORT`, answered 400 \"Operation not permitted\" but /healthcheck, as the collector's HTTP port")
	fs.IntVar(&o.BackendPool, "backend-pool", testserver.DefaultBackendPool, "downstream publisher connections (with --publish-time)")
	fs.IntVar(&o.BackendQueue, "backend-queue", 0, "requests that may wait for a downstream connection; past that a request fails at once (default 2 × --backend-pool)")
	fs.DurationVar(&o.PublishTime, "publish-time", 0, "time each accepted request holds a downstream connection (0: no backend model)")
	fs.DurationVar(&o.Latency, "latency", 0, "delay added to every answer")
	fs.DurationVar(&o.Jitter, "jitter", 0, "spread the delay uniformly over latency ± jitter")
	fs.Float64Var(&o.ErrorRate, "error-rate", 0, "fraction (0..1) of valid requests answered with a publish failure")
	fs.StringVar(&f.in.Stall, "stall", "", "freeze every answer for `D` starting `T` after start, written D@T (e.g. 2s@10s)")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed for --error-rate, --jitter and --publish-drop, to repeat a run exactly (0: a random one, named in the start lines)")
	fs.BoolVar(&o.NoValidate, "no-validate", false, "skip the schema checks (the collector's collector.schema.checkflag=-1; JSON syntax, batch and routing checks stay)")
	fs.StringVar(&o.SchemaDir, "schema-dir", testserver.DefaultSchemaDir(), "`DIR` laid out as the collector's etc/: CommonEventFormat_27.2.json, _28.4.1.json, _30.2.1_ONAP.json and externalRepo/schema-map.json; when it does not exist, only the built-in header rules apply (said on start)")
	fs.BoolVar(&o.StrictJSON, "strict-json", false, "answer any body that is not strict JSON with 400 SVC0002, instead of parsing as the collector's org.json does (lenient; 500 for what it throws on)")
	fs.StringVar(&o.Streams, "streams", testserver.DefaultStreams, "the collector's collector.dmaap.streamid (`DOMAIN=STREAM|...`): an event whose domain, or stndDefined namespace, is not listed gets 400 SVC2000")
	fs.BoolVar(&f.quiet, "quiet", false, "print nothing but errors")
	p := &f.st.Publish
	cliflag.AddrVar(fs, &p.Embedded, "kafka-embedded", "", "start an in-process Kafka broker on `HOST:PORT` and publish accepted events to it")
	fs.StringVar(&p.URL, "publish", "", "publish accepted events to an external broker, `kafka://HOST:PORT`")
	fs.Float64Var(&p.Drop, "publish-drop", 0, "fraction (0..1) of accepted events silently not published (a broken publisher)")
	fs.DurationVar(&p.Delay, "publish-delay", 0, "hold every event this long before producing it")
	fs.IntVar(&p.Buffer, "publish-buffer", publish.DefaultBuffer, "events buffered for the broker at most; a full buffer stalls requests")
	fs.DurationVar(&p.MaxBlock, "publish-max-block", publish.DefaultMaxBlock, "how long a request waits for buffer room before its publish fails (the producer's max.block.ms)")
	h := &f.st.HV
	cliflag.AddrVar(fs, &h.Addr, "hv-listen", "", "also run the HV-VES emulator: WTP frames over TCP on `HOST:PORT` (the collector uses 6061)")
	cliflag.AddrVar(fs, &f.st.HVMonitor, "hv-monitor", "127.0.0.1:6060", "the HV-VES emulator's /stats, /metrics (hvves_* names) and /health/ready on `HOST:PORT`")
	fs.StringVar(&h.TLSCertFile, "hv-tls-cert", "", "HV-VES over TLS with this PEM certificate `FILE` (needs --hv-tls-key)")
	fs.StringVar(&h.TLSKeyFile, "hv-tls-key", "", "PEM private key `FILE` of --hv-tls-cert")
	fs.StringVar(&h.ClientCAFile, "hv-client-ca", "", "require HV-VES client certificates signed by this PEM CA `FILE`")
	fs.DurationVar(&h.IdleTimeout, "hv-idle-timeout", hvemu.DefaultIdleTimeout, "close HV-VES connections idle this long")
	fs.Int64Var(&h.ReadRate, "hv-read-rate", 0, "read each HV-VES connection at most this many `BYTES` a second (0: no limit), to create back-pressure")
	fs.Float64Var(&h.ProcessRate, "hv-process-rate", 0, "handle at most this many HV-VES `MESSAGES` a second over all connections (0: no limit), as a collector of known capacity: the rest waits in the connections' buffers, its travel time growing")
	fs.IntVar(&h.MaxPayload, "hv-max-payload", hvemu.MaxPayload, "disconnect HV-VES clients announcing a larger payload (bytes)")
	fs.BoolVar(&o.RecordArrivals, "record-arrivals", false, "keep the gaps between event requests' arrivals (in /stats), to check that shards interleave")
	cliflag.AddrVar(fs, &f.st.Sink, "sink", "", "also listen on `HOST:PORT` for vesload probe's bulk throughput test (POST /sink)")
	f.child.Declare(fs)
	var presets []string
	for _, p := range testserver.Presets() {
		presets = append(presets, p.Name+": "+p.Summary)
	}
	fs.StringVar(&f.preset, "preset", "", "stand in for a collector generation, for A/B runs (flags given beside it win): "+strings.Join(presets, "; "))
}

// serve is runServe with the stop signal as a context, so that tests can
// stop it without sending signals to the test process.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve")
	f := &serveFlags{}
	f.declare(fs)
	if code, done := parseCommand(fs, args, serveSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "vesload serve", usagef("unexpected argument %q", fs.Arg(0)))
	}
	log := log.New(stderr, "vesload serve: ", 0) // whole lines from any goroutine
	logf := func(format string, args ...any) {
		if !f.quiet { // errors only
			log.Print(strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
		}
	}
	f.st.Publish.Bounded = f.child.Bounded
	f.in.QueueGiven, f.in.Logf, f.st.HV.Logf = fs.Changed("backend-queue"), logf, logf
	if f.preset != "" || fs.Changed("preset") { // --preset '' is an unknown preset, not none
		p, err := testserver.LookupPreset(f.preset)
		if err != nil {
			return fail(stderr, "vesload serve", usagef("--preset: %v", err))
		}
		p.Apply(&f.in, fs.Changed)
		logf("preset %s: %s", p.Name, p.Summary)
	}
	ctx, stopWatch := f.child.Watch(ctx, os.Stdin)
	defer stopWatch()
	opts, err := f.st.Prepare(&f.in)
	if err != nil {
		return fail(stderr, "vesload serve", usage.Wrap(err))
	}
	return f.run(ctx, opts, log, stdout)
}

// run serves the emulator and what the flags start beside it
// (testserver.RunStack) until ctx ends.
func (f *serveFlags) run(ctx context.Context, opts testserver.Options, log *log.Logger, stdout io.Writer) int {
	ro := testserver.RunOptions{Logf: f.in.Logf}
	err := testserver.RunStack(ctx, opts, f.st, ro, func(a testserver.Addrs) {
		f.child.Print(stdout, builtin.Addrs{Seed: f.in.Seed, URL: a.URL, HV: a.HV, HVMonitor: a.HVMonitor, Kafka: a.Kafka}, os.Getpid())
	})
	if err != nil {
		log.Printf("%v", err)
		return exitRun
	}
	return exitOK
}
