package scenario

import (
	"fmt"
	"os"

	"github.com/vesload/vesload/internal/expect"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/result"
)

// Plan is a compiled run: what the engine needs and how the result
// describes it.
type Plan struct {
	// Config is the engine's configuration; the caller adds its hooks.
	Config engine.Config
	// REST is where and how the requests go, the VES REST transport's
	// options: the one place a scenario's target, method, headers,
	// credentials, TLS and expected statuses are mapped. Transport builds
	// the transport from it.
	REST rest.Options
	// RunConfig is the run's description for the result document, with
	// every secret redacted.
	RunConfig result.RunConfig
	// URL is the target URL as results show it (no user info).
	URL string
	// Label names the request in per-request outputs (the JTL label):
	// the request kind's name, or "mix".
	Label string
	// Warnings are problems the run goes on with, such as a raw_body
	// template that is not JSON; the caller shows them.
	Warnings []string
}

// Transport builds the VES REST transport of the plan for cfg, the
// engine's configuration as the run will use it (its pool, timeout and
// failure log: a shard or the command line may have changed them since
// Compile). It connects to nothing.
func (pl *Plan) Transport(cfg *engine.Config) (transport.Transport, error) {
	o := pl.REST
	o.Pool, o.Timeout, o.LogFailure = cfg.Pool, cfg.Timeout, cfg.LogFailure
	tr, err := rest.New(o)
	if err != nil {
		return nil, err // not a nil *rest.Transport in an interface
	}
	return tr, nil
}

// Options are the parts of a compilation that do not come from the
// scenario.
type Options struct {
	// Version names the generator in the User-Agent ("vesload/VERSION").
	Version string
	// NoPreflight starts without first connecting to the target once.
	NoPreflight bool
	// RunID prefixes every eventId the run sends; empty means a fresh
	// random one. Tests give one to get the same bodies every time.
	RunID string
	// LookupEnv reads the environment variables that hold passwords;
	// nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

func (o Options) lookupEnv(name string) (string, bool) {
	if o.LookupEnv == nil {
		return os.LookupEnv(name)
	}
	return o.LookupEnv(name)
}

// Compile turns a resolved scenario (see Resolve) into a Plan. The target
// URL must be set: the caller starts the emulator when the scenario names
// none. Every error is bad input.
func Compile(p *profiles.Profile, opts Options) (*Plan, error) {
	u, err := parseTarget(p.Target.URL)
	if err != nil {
		return nil, err
	}
	user, password, err := credentials(p.Target.Auth, u, opts.lookupEnv)
	if err != nil {
		return nil, err
	}
	u.User = nil
	pl := &Plan{URL: u.String()}
	pl.Config = engine.Config{
		Pool:        p.Pool,
		PoolWait:    p.PoolWait,
		Timeout:     p.Timeout,
		NoPreflight: opts.NoPreflight,
		// A REST run's preflight sends one real request (a no-op for
		// transports that cannot).
		ProbeRequest: true,
	}
	pl.REST = rest.Options{
		URL:       pl.URL,
		Method:    p.Target.Method,
		Headers:   sortedHeaders(p.Target.Headers),
		User:      user,
		Password:  password,
		KeepAlive: p.KeepAliveOn(),
		UserAgent: "vesload/" + opts.Version,
	}
	if pl.REST.Method == "" {
		pl.REST.Method = "POST"
	}
	if pl.REST.Expect, err = expect.Parse(p.Target.ExpectStatus); err != nil {
		return nil, fmt.Errorf("expected status: %w", err)
	}
	if t := p.Target.TLS; t != nil {
		pl.REST.TLS = tlsconf.Options{CAFile: t.CACert, CertFile: t.Cert, KeyFile: t.Key, CertPassFile: t.CertPassFile, Insecure: t.Insecure}
	}
	if err := setLoad(&pl.Config, p.Load); err != nil {
		return nil, err
	}
	runID := opts.RunID
	if runID == "" {
		runID = ves.NewRunID()
	}
	if err := setRequests(pl, p, u, runID); err != nil {
		return nil, err
	}
	pl.RunConfig = describe(p, pl, runID)
	return pl, nil
}
