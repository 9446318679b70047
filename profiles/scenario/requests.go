package scenario

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
)

// setRequests builds the body of every request kind of the mix; a mix of
// one is the plain single-request configuration.
func setRequests(pl *Plan, p *profiles.Profile, base *url.URL, runID string) error {
	var data *ves.Data
	if p.Data != nil {
		var err error
		if data, err = loadData(p.Data, p.Label()); err != nil {
			return err
		}
	}
	mix := make([]engine.Request, 0, len(p.Requests))
	kinds := make([]rest.Kind, 0, len(p.Requests))
	for _, r := range p.Requests {
		body, batch, err := requestBody(r, p.Vars, data, p.Data != nil && p.Data.Per == profiles.DataPerWorker, runID)
		if err != nil {
			return err
		}
		if t, ok := body.(*ves.Template); ok && t.NotJSON() != "" {
			pl.Warnings = append(pl.Warnings, fmt.Sprintf("request %s: body is not valid JSON (%s): sent as written (raw_body)", r.Name, t.NotJSON()))
		}
		u := *base
		if r.Path != "" {
			u.Path = r.Path
		}
		if batch && !strings.HasSuffix(u.Path, "/eventBatch") {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/eventBatch"
		}
		mix = append(mix, engine.Request{Name: r.Name, Body: body, Weight: max(r.Weight, 1)})
		kinds = append(kinds, rest.Kind{Name: r.Name, URL: u.String(), Headers: sortedHeaders(r.Headers)})
	}
	if len(mix) == 1 {
		pl.Config.Body = mix[0].Body
		pl.REST.URL, pl.REST.Kinds = kinds[0].URL, []rest.Kind{{URL: kinds[0].URL}}
		pl.REST.Headers = append(pl.REST.Headers, kinds[0].Headers...)
		pl.URL = kinds[0].URL
		pl.Label = requestLabel(p.Requests[0])
		return nil
	}
	pl.Config.Mix, pl.REST.Kinds = mix, kinds
	pl.Label = "mix"
	return nil
}

// rawBodyHint names what sends a body that does not render to JSON as
// written (ONAP's stndDefined plans are one brace short), or "".
func rawBodyHint(err error) string {
	var te *ves.TemplateError
	if errors.As(err, &te) && te.NotJSON {
		return " (to send it as written, give --raw-body, or raw_body: true in the profile's request)"
	}
	return ""
}

// requestBody returns the body source of one request kind and whether it
// is a batch.
func requestBody(r profiles.Request, vars map[string]string, data *ves.Data, perWorker bool, runID string) (engine.Body, bool, error) {
	opts := ves.TemplateOptions{RunID: runID, Vars: vars, Data: data, DataPerWorker: perWorker, AllowInvalidJSON: r.RawBody}
	switch {
	case r.BodyFile != "":
		t, err := ves.LoadTemplate(r.BodyFile, opts)
		if err != nil {
			return nil, false, fmt.Errorf("body file: %w%s", err, rawBodyHint(err))
		}
		return t, t.IsBatch(), nil
	case r.Body != "":
		t, err := ves.CompileTemplate([]byte(r.Body), opts)
		if err != nil {
			return nil, false, fmt.Errorf("request %s: body: %w%s", r.Name, err, rawBodyHint(err))
		}
		return t, t.IsBatch(), nil
	}
	if data != nil {
		return nil, false, fmt.Errorf("request %s: a data file binds ${NAME} in body templates: give a body or --body-file", r.Name)
	}
	event := r.Event
	if event == "" {
		event = "fault"
	}
	ev, err := ves.NewEvent(event, ves.EventOptions{RunID: runID, Size: r.Size, Batch: r.Batch})
	if err != nil {
		return nil, false, fmt.Errorf("--event %s: %w", event, err)
	}
	return ev, r.Batch > 1, nil
}

// requestLabel names a request kind in per-request outputs (the JTL label).
func requestLabel(r profiles.Request) string {
	if r.Batch > 1 {
		return r.Name + "-batch"
	}
	return r.Name
}

// sortedHeaders lists headers by name, so that every run of a scenario
// sends them in the same order.
func sortedHeaders(m map[string]string) []transport.Header {
	hs := make([]transport.Header, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		hs = append(hs, transport.Header{Name: name, Value: m[name]})
	}
	return hs
}
