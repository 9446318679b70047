package engine

import "github.com/vesload/vesload/loadgen/transport/rest"

// newREST is New with cfg's Transport set to the VES REST transport for its
// target, built with rest.New from the same fields the command line maps
// (URL, Method, UserAgent, Headers, credentials, TLS, the mix's URLs and
// headers, Pool, Timeout, KeepAlive, Dial, Expect). An error from rest.New
// is returned as New's would be.
func newREST(cfg Config) (*Engine, error) {
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
		return nil, err
	}
	cfg.Transport = tr
	return New(cfg)
}
