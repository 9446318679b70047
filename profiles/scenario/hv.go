package scenario

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vesload/vesload/loadgen/transport/hv"
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

// HVIgnored lists, one line each, what an HV-VES profile says that an
// HV-VES run does not use: its producers send perf3gpp measurement
// payloads of the first request's size, so a request's event other than
// measurement, its body, body file, path, headers and batch are ignored.
// A profile written for REST and run by `vesload hv` thus says so
// instead of being half obeyed in silence.
func HVIgnored(p *profiles.Profile) []string {
	var out []string
	for i, r := range p.Requests {
		var keys []string
		if r.Event != "" && r.Event != "measurement" {
			keys = append(keys, "event: "+r.Event)
		}
		for _, k := range []struct {
			key string
			set bool
		}{{"body", r.Body != ""}, {"body_file", r.BodyFile != ""}, {"path", r.Path != ""},
			{"headers", len(r.Headers) > 0}, {"batch", r.Batch > 0}, {"raw_body", r.RawBody}} {
			if k.set {
				keys = append(keys, k.key)
			}
		}
		if len(keys) > 0 {
			out = append(out, fmt.Sprintf("requests[%d] %s: ignored by an HV-VES run, whose producers send perf3gpp measurement payloads of the first request's size (--size)",
				i, strings.Join(keys, ", ")))
		}
	}
	return out
}
