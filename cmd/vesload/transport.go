package main

import (
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
)

// restTransport is the VES REST transport for a compiled run: its target,
// request mix (each kind's URL and headers), credentials, TLS, pool,
// timeout, keep-alive and dialer. It is the one place a run's
// configuration becomes rest.Options; every command that runs the engine
// over REST hands it to its session (session.Options.Transport), whose
// Run calls it once the observers are attached (-v's failure log is one).
func restTransport(cfg *engine.Config) (transport.Transport, error) {
	o := rest.Options{
		URL: cfg.URL, Method: cfg.Method, UserAgent: cfg.UserAgent, Headers: cfg.Headers,
		User: cfg.User, Password: cfg.Password, TLS: cfg.TLS,
		Pool: cfg.Pool, Timeout: cfg.Timeout, KeepAlive: cfg.KeepAlive, Dial: cfg.Dial,
		Expect: cfg.Expect, LogFailure: cfg.LogFailure,
	}
	if len(cfg.Mix) == 0 {
		o.Kinds = []rest.Kind{{URL: cfg.URL}}
	}
	for _, k := range cfg.Mix {
		o.Kinds = append(o.Kinds, rest.Kind{URL: k.URL, Headers: k.Headers})
	}
	tr, err := rest.New(o)
	if err != nil {
		return nil, err // not a nil *rest.Transport in an interface
	}
	return tr, nil
}
