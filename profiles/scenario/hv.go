package scenario

import (
	"errors"

	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/profiles"
)

// HVOverrides are what a profile of HV-VES producers (load.producers, the
// first request's size) says about a run, to lay over the defaults of
// hv.Config before the command line's own overrides: only the values the
// profile sets.
func HVOverrides(p *profiles.Profile) (hv.Overrides, error) {
	pr := p.Load.Producers
	if pr == nil {
		return hv.Overrides{}, errors.New("no load.producers section (an HV-VES run needs producers, messages and an interval)")
	}
	var o hv.Overrides
	if pr.Count > 0 {
		o.Producers = &pr.Count
	}
	if pr.Messages > 0 {
		n := int(min(pr.Messages, 1<<31-1))
		o.Messages = &n
	}
	if pr.Interval > 0 {
		o.Interval = &pr.Interval
	}
	if len(p.Requests) > 0 && p.Requests[0].Size > 0 {
		o.Size = &p.Requests[0].Size
	}
	return o, nil
}
