package engine

import "github.com/vesload/vesload/loadgen/transport/rest"

// restRun is a test's run over VES REST: the engine's configuration and
// the options of the transport it sends through, as a compiled scenario
// holds them side by side.
type restRun struct {
	Config
	REST rest.Options
}

// newREST is New with the run's Transport set to the VES REST transport
// built from its REST options, with the engine's pool, timeout and
// failure log, as scenario.Plan.Transport maps them. An error from
// rest.New is returned as New's would be.
func newREST(r restRun) (*Engine, error) {
	o := r.REST
	o.Pool, o.Timeout, o.LogFailure = r.Pool, r.Timeout, r.LogFailure
	tr, err := rest.New(o)
	if err != nil {
		return nil, err
	}
	r.Transport = tr
	return New(r.Config)
}
