package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vesload/vesload/testserver"
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
	listen, compat, auth, authFile, tlsCert, tlsKey, stall string
	clientCA, httpListen                                   string
	pool, queue, authCost                                  int
	publishTime, latency, jitter                           time.Duration
	errorRate                                              float64
	seed                                                   uint64
	noValidate, quiet                                      bool
	pub                                                    publishFlags
	arrivals                                               bool
	sink                                                   string
	child                                                  childFlags
	schemaDir, streams                                     string
	strictJSON                                             bool
}

// defaultSchemaDir is where the collector's schemas are looked for when
// --schema-dir is not given: $VESLOAD_SHARED/ves when set, else
// ../shared/ves, the reference material's place beside the repository.
func defaultSchemaDir() string {
	if root := os.Getenv("VESLOAD_SHARED"); root != "" {
		return filepath.Join(root, "ves")
	}
	return filepath.Join("..", "shared", "ves")
}

// serve is runServe with the stop signal as a context, so that tests can
// stop it without sending signals to the test process.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve")
	f := &serveFlags{}
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "address to listen on (`HOST:PORT`; \":8080\" listens on every interface)")
	fs.StringVar(&f.compat, "compat", testserver.CompatV72, "answers as the collector's response compatibility setting: v7.2 (success 202, publish failure 500) or legacy (200, 503); kafka: v7.2 answered before the broker acknowledges")
	fs.StringVar(&f.auth, "auth", "", "require HTTP basic auth `USER:PASS` (visible in process listings: prefer --auth-file)")
	fs.StringVar(&f.authFile, "auth-file", "", "read USER:PASS for basic auth from `FILE`")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate `FILE` (needs --tls-key)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "PEM private key `FILE` of --tls-cert")
	fs.IntVar(&f.authCost, "auth-cost", 10, "BCrypt cost of the basic-auth check, paid by every basic-auth request as in the collector's certBasicAuth mode (4..16; 0: a plain comparison)")
	fs.StringVar(&f.clientCA, "client-ca", "", "with --tls-cert and auth, let in clients whose certificate this PEM CA `FILE` verifies, without basic auth (certBasicAuth)")
	fs.StringVar(&f.httpListen, "http-listen", "", "with --tls-cert and auth, also listen for plain HTTP on `HOST:PORT`, answered 400 \"Operation not permitted\" but /healthcheck, as the collector's HTTP port")
	fs.IntVar(&f.pool, "backend-pool", testserver.DefaultBackendPool, "downstream publisher connections (with --publish-time)")
	fs.IntVar(&f.queue, "backend-queue", 0, "requests that may wait for a downstream connection; past that a request fails at once (default 2 × --backend-pool)")
	fs.DurationVar(&f.publishTime, "publish-time", 0, "time each accepted request holds a downstream connection (0: no backend model)")
	fs.DurationVar(&f.latency, "latency", 0, "delay added to every answer")
	fs.DurationVar(&f.jitter, "jitter", 0, "spread the delay uniformly over latency ± jitter")
	fs.Float64Var(&f.errorRate, "error-rate", 0, "fraction (0..1) of valid requests answered with a publish failure")
	fs.StringVar(&f.stall, "stall", "", "freeze every answer for `D` starting `T` after start, written D@T (e.g. 2s@10s)")
	fs.Uint64Var(&f.seed, "seed", 0, "seed for --error-rate, --jitter and --publish-drop, to repeat a run exactly (0: a random one, named in the start lines)")
	fs.BoolVar(&f.noValidate, "no-validate", false, "skip the schema checks (the collector's collector.schema.checkflag=-1; JSON syntax, batch and routing checks stay)")
	fs.StringVar(&f.schemaDir, "schema-dir", defaultSchemaDir(), "`DIR` laid out as the collector's etc/: CommonEventFormat_27.2.json, _28.4.1.json, _30.2.1_ONAP.json and externalRepo/schema-map.json; when it does not exist, only the built-in header rules apply (said on start)")
	fs.BoolVar(&f.strictJSON, "strict-json", false, "answer any body that is not strict JSON with 400 SVC0002, instead of parsing as the collector's org.json does (lenient; 500 for what it throws on)")
	fs.StringVar(&f.streams, "streams", testserver.DefaultStreams, "the collector's collector.dmaap.streamid (`DOMAIN=STREAM|...`): an event whose domain, or stndDefined namespace, is not listed gets 400 SVC2000")
	fs.BoolVar(&f.quiet, "quiet", false, "print nothing but errors")
	addPublishFlags(fs, &f.pub)
	hvf := addHVServeFlags(fs)
	fs.BoolVar(&f.arrivals, "record-arrivals", false, "keep the gaps between event requests' arrivals (in /stats), to check that shards interleave")
	fs.StringVar(&f.sink, "sink", "", "also listen on `HOST:PORT` for vesload probe's bulk throughput test (POST /sink)")
	addChildFlags(fs, &f.child)
	if code, done := parseCommand(fs, args, serveSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vesload serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	log := newLineWriter(stderr, f.quiet)
	if strings.EqualFold(f.compat, compatKafka) {
		f.compat, f.pub.beforeAck = testserver.CompatV72, true
	}
	for f.seed == 0 { // 0 means random: pick one here, so the start lines can name it
		f.seed = rand.Uint64()
	}
	f.pub.seed = f.seed
	f.pub.bounded = f.child.bounded
	ctx, stopWatch := f.child.watchStdin(ctx)
	defer stopWatch()
	opts, err := f.options(fs.Changed("backend-queue"), log)
	if err == nil {
		err = f.pub.check()
	}
	if err != nil {
		fmt.Fprintf(stderr, "vesload serve: %v\n", err)
		return exitUsage
	}
	hvOpts, err := hvf.options(log)
	if err != nil {
		fmt.Fprintf(stderr, "vesload serve: %v\n", err)
		return exitUsage
	}
	kafka, err := f.pub.start()
	if err != nil {
		fmt.Fprintf(stderr, "vesload serve: %v\n", err)
		return exitRun
	}
	if kafka != nil {
		hvOpts.OnMessage = kafka.publishHV
	}
	stopHV, hvAddrs, err := hvf.start(hvOpts, log)
	if err != nil {
		if kafka != nil {
			kafka.close()
		}
		fmt.Fprintf(stderr, "vesload serve: %v\n", err)
		return exitRun
	}
	defer stopHV()
	if f.sink != "" {
		sink, err := testserver.StartSink(f.sink)
		if err != nil {
			fmt.Fprintf(stderr, "vesload serve: --sink: %v\n", err)
			return exitRun
		}
		defer sink.Close()
		log.printf("throughput sink on %s (vesload probe --sink)", sink.URL())
	}
	announce := func(url string) { f.child.announce(stdout, url, hvAddrs, kafka, f.seed) }
	return runEmulator(ctx, opts, kafka, &f.pub, log, stderr, announce)
}

// runEmulator serves until ctx ends and prints the summary; kafka, when
// not nil, is where accepted events are published (closed on return).
func runEmulator(ctx context.Context, opts testserver.Options, kafka *kafkaSide, pub *publishFlags, log *lineWriter, stderr io.Writer, announce func(url string)) int {
	if kafka != nil {
		opts.Publish = kafka.pub.Publish
	}
	srv, err := testserver.Start(opts)
	if err != nil {
		if kafka != nil {
			kafka.close()
		}
		fmt.Fprintf(stderr, "vesload serve: %v\n", err)
		return exitRun
	}
	start := time.Now()
	log.printf("VES collector emulator on %s/eventListener/v7 (%s)", srv.URL(), describe(opts))
	if kafka != nil {
		log.printf("%s", kafka.describe(pub))
	}
	announce(srv.URL())
	<-ctx.Done()
	closeErr := srv.Close()
	log.printf("%s", summary(srv.Stats(), time.Since(start)))
	if kafka != nil {
		if err := kafka.close(); err != nil && closeErr == nil {
			closeErr = err
		}
		log.printf("%s", kafka.summary())
	}
	if closeErr != nil {
		fmt.Fprintf(stderr, "vesload serve: %v\n", closeErr)
		return exitRun
	}
	return exitOK
}

// options checks the flags and turns them into emulator options. Every
// error names its flag.
func (f *serveFlags) options(queueSet bool, log *lineWriter) (testserver.Options, error) {
	o := testserver.Options{
		Addr: f.listen, Compat: f.compat, TLSCertFile: f.tlsCert, TLSKeyFile: f.tlsKey,
		BackendPool: f.pool, BackendQueue: f.queue, PublishTime: f.publishTime,
		Latency: f.latency, Jitter: f.jitter, ErrorRate: f.errorRate, Seed: f.seed,
		NoValidate: f.noValidate, SchemaDir: f.schemaDir, StrictJSON: f.strictJSON, Streams: f.streams, Logf: log.printf, ClientCAFile: f.clientCA, HTTPAddr: f.httpListen,
		RecordArrivals: f.arrivals,
	}
	switch strings.ToLower(f.compat) {
	case testserver.CompatV72, testserver.CompatLegacy, "none":
	default:
		return o, fmt.Errorf("--compat: want v7.2, legacy or kafka, got %q", f.compat)
	}
	if err := testserver.CheckStreams(f.streams); err != nil {
		return o, fmt.Errorf("--streams: %w", err)
	}
	if !(f.errorRate >= 0 && f.errorRate <= 1) {
		return o, fmt.Errorf("--error-rate: want a fraction between 0 and 1, got %v", f.errorRate)
	}
	if err := f.checkCounts(queueSet, &o); err != nil {
		return o, err
	}
	if err := f.checkDurations(); err != nil {
		return o, err
	}
	var err error
	if o.Stall, o.StallAt, err = parseStall(f.stall); err != nil {
		return o, fmt.Errorf("--stall: %w", err)
	}
	if o.Auth, err = f.credentials(); err != nil {
		return o, err
	}
	if err := f.checkTLS(); err != nil {
		return o, err
	}
	return o, f.checkCertBasicAuth(&o)
}

// checkCertBasicAuth checks --auth-cost, --client-ca and --http-listen,
// which only mean something with auth (and the last two with TLS).
func (f *serveFlags) checkCertBasicAuth(o *testserver.Options) error {
	if f.authCost != 0 && (f.authCost < 4 || f.authCost > testserver.MaxAuthCost) {
		return fmt.Errorf("--auth-cost: want 4..%d, or 0 for a plain comparison, got %d", testserver.MaxAuthCost, f.authCost)
	}
	if o.Auth != "" {
		o.AuthCost = f.authCost
	}
	for _, c := range []struct{ flag, v string }{{"--client-ca", f.clientCA}, {"--http-listen", f.httpListen}} {
		if c.v != "" && (o.Auth == "" || f.tlsCert == "") {
			return fmt.Errorf("%s: needs --tls-cert and --auth or --auth-file (the certBasicAuth setup)", c.flag)
		}
	}
	return nil
}

func (f *serveFlags) checkCounts(queueSet bool, o *testserver.Options) error {
	if f.pool < 1 {
		return fmt.Errorf("--backend-pool: want at least 1, got %d", f.pool)
	}
	if f.queue < 0 {
		return fmt.Errorf("--backend-queue: must not be negative, got %d", f.queue)
	}
	if queueSet && f.queue == 0 {
		o.BackendQueue = -1 // an explicit 0: no queue at all
	}
	return nil
}

func (f *serveFlags) checkDurations() error {
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--publish-time", f.publishTime}, {"--latency", f.latency}, {"--jitter", f.jitter}} {
		if d.v < 0 {
			return fmt.Errorf("%s: must not be negative, got %v", d.flag, d.v)
		}
	}
	if f.jitter > f.latency {
		// latency ± jitter would ask for negative delays, which the
		// emulator could only clamp to 0 and so skew the spread.
		return fmt.Errorf("--jitter %v: must not exceed --latency %v (the delay is latency ± jitter)", f.jitter, f.latency)
	}
	return nil
}

// credentials returns USER:PASS from --auth or --auth-file.
func (f *serveFlags) credentials() (string, error) {
	if f.auth != "" && f.authFile != "" {
		return "", errors.New("--auth and --auth-file: give only one")
	}
	cred, flag := f.auth, "--auth"
	if f.authFile != "" {
		b, err := os.ReadFile(f.authFile)
		if err != nil {
			return "", fmt.Errorf("--auth-file: %w", err)
		}
		cred, flag = strings.TrimSpace(string(b)), "--auth-file"
	}
	if cred == "" && f.authFile == "" {
		return "", nil
	}
	if user, _, ok := strings.Cut(cred, ":"); !ok || user == "" {
		return "", fmt.Errorf("%s: want USER:PASS", flag) // never echo the value: it holds a password
	}
	return cred, nil
}

func (f *serveFlags) checkTLS() error {
	if f.tlsCert == "" && f.tlsKey == "" {
		return nil
	}
	if f.tlsCert == "" || f.tlsKey == "" {
		return errors.New("--tls-cert and --tls-key: give both")
	}
	if _, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey); err != nil {
		return fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	return nil
}

// parseStall parses D@T ("2s@10s": freeze for 2s, 10s after start); the
// empty string means no stall.
func parseStall(s string) (stall, at time.Duration, err error) {
	if s == "" {
		return 0, 0, nil
	}
	ds, ts, ok := strings.Cut(s, "@")
	if !ok {
		return 0, 0, fmt.Errorf("want DURATION@START such as 2s@10s, got %q", s)
	}
	if stall, err = time.ParseDuration(ds); err != nil || stall <= 0 {
		return 0, 0, fmt.Errorf("duration before @ must be positive, such as 2s, got %q", ds)
	}
	if at, err = time.ParseDuration(ts); err != nil || at < 0 {
		return 0, 0, fmt.Errorf("start after @ must be a duration from start, such as 10s, got %q", ts)
	}
	return stall, at, nil
}

// describe says in a few words how the emulator behaves; it never
// includes the credentials.
func describe(o testserver.Options) string {
	parts := []string{"compat " + strings.ToLower(o.Compat)}
	switch {
	case o.Auth != "" && o.AuthCost > 0:
		parts = append(parts, fmt.Sprintf("basic auth (BCrypt cost %d)", o.AuthCost))
	case o.Auth != "":
		parts = append(parts, "basic auth")
	}
	if o.ClientCAFile != "" {
		parts = append(parts, "client certificates")
	}
	if o.HTTPAddr != "" {
		parts = append(parts, "HTTP port "+o.HTTPAddr+" refused")
	}
	if o.PublishTime > 0 {
		q := fmt.Sprint(o.BackendQueue)
		switch {
		case o.BackendQueue == 0:
			q = fmt.Sprint(2 * o.BackendPool)
		case o.BackendQueue < 0:
			q = "0"
		}
		parts = append(parts, fmt.Sprintf("backend %d connections + %s queued, publish %v", o.BackendPool, q, o.PublishTime))
	}
	if o.Latency > 0 || o.Jitter > 0 {
		parts = append(parts, fmt.Sprintf("latency %v±%v", o.Latency, o.Jitter))
	}
	if o.ErrorRate > 0 {
		parts = append(parts, fmt.Sprintf("error rate %g", o.ErrorRate))
	}
	if o.ErrorRate > 0 || o.Jitter > 0 {
		parts = append(parts, fmt.Sprintf("seed %d", o.Seed))
	}
	if o.Stall > 0 {
		parts = append(parts, fmt.Sprintf("stall %v at %v", o.Stall, o.StallAt))
	}
	if o.NoValidate {
		parts = append(parts, "no validation")
	}
	return strings.Join(parts, ", ")
}

// summary is the one line printed when the emulator stops.
func summary(st testserver.Stats, up time.Duration) string {
	codes := make([]int, 0, len(st.ByStatus))
	for c := range st.ByStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var by bytes.Buffer
	for _, c := range codes {
		fmt.Fprintf(&by, " %d=%d", c, st.ByStatus[c])
	}
	auth := ""
	if st.AuthBasic+st.AuthCertificate > 0 {
		auth = fmt.Sprintf("; auth: %d basic, %d certificate", st.AuthBasic, st.AuthCertificate)
	}
	return fmt.Sprintf("stopped after %v: %d requests (%d accepted, %d rejected), %d events, "+
		"%d duplicate event ids, %d backend rejections, max %d in flight; by status:%s%s",
		up.Round(time.Millisecond), st.Requests, st.Accepted, st.Rejected, st.Events,
		st.DuplicateEventIDs, st.BackendRejected, st.MaxInFlight, by.String(), auth)
}

// lineWriter writes whole "vesload serve: …" lines from any goroutine,
// or nothing when quiet.
type lineWriter struct {
	mu    sync.Mutex
	w     io.Writer
	quiet bool
}

func newLineWriter(w io.Writer, quiet bool) *lineWriter {
	return &lineWriter{w: w, quiet: quiet}
}

func (l *lineWriter) printf(format string, args ...any) {
	if l.quiet {
		return
	}
	line := fmt.Sprintf("vesload serve: "+format, args...)
	line = strings.TrimRight(line, "\n") + "\n"
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, line)
}
