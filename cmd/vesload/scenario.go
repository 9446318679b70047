package main

import (
	"maps"
	"slices"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// resolveScenario returns the run described by -profile (built-in name or
// file) with every flag the user gave laid over it (scenario.Apply), and
// with its variables bound and resolved. Without -profile the flags alone
// describe the run.
func resolveScenario(o *runOptions, changed func(string) bool) (*profiles.Profile, error) {
	p := &profiles.Profile{}
	if o.profile != "" {
		loaded, err := profiles.Load(o.profile)
		if err != nil {
			return nil, usagef("-profile: %v", err)
		}
		p = loaded
	}
	ov, err := runOverrides(o, changed)
	if err != nil {
		return nil, err
	}
	req := scenario.EventRequest(o.event, o.eventSize, o.batch, o.bodyFile)
	if changed("event") || changed("event-size") || changed("batch") || changed("body-file") {
		ov.Request = &req
	}
	def := scenario.Defaults{RPS: o.rps, Duration: o.duration, Pool: o.pool, Timeout: o.timeout, KeepAlive: o.keepAlive, Request: req}
	if err := scenario.Apply(p, ov, def); err != nil {
		return nil, usage.Wrap(err)
	}
	overlaySamplers(p, &o.watch)
	resolved, err := scenario.Resolve(p, o.vars)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return resolved, nil
}

// runOverrides are the flags of a run that were given, as overrides of
// its profile.
func runOverrides(o *runOptions, changed func(string) bool) (scenario.Overrides, error) {
	ov := scenario.Overrides{
		RPS: given(changed, "rps", o.rps), Duration: given(changed, "duration", o.duration),
		Pool: given(changed, "pool", o.pool), PoolWait: given(changed, "pool-wait", o.poolWait),
		Timeout: given(changed, "timeout", o.timeout), KeepAlive: given(changed, "keepalive", o.keepAlive),
		URL: given(changed, "url", o.url), User: given(changed, "user", o.user),
		PasswordFile: given(changed, "password-file", o.passFile), CACert: given(changed, "cacert", o.cacert),
		Insecure: given(changed, "insecure", o.insecure), RawBody: o.rawBody,
		DataFile: given(changed, "data-file", o.dataFile), DataPer: given(changed, "data-per", o.dataPer),
		Thresholds: o.thresholds,
	}
	if changed("expect-status") {
		ov.ExpectStatus = o.expectStatus
	}
	var err error
	if ov.Labels, err = parseLabels(nil, o.labels); err != nil {
		return ov, err
	}
	if changed("cert") || changed("key") || changed("cert-pass-file") {
		ov.ClientCert = &scenario.ClientCert{Cert: o.cert, Key: o.key, PassFile: o.certPass}
	}
	if len(o.headers) > 0 {
		ov.Headers, err = parseHeaders(o.headers)
	}
	return ov, err
}

// given is &v when the flag name was given, else nil.
func given[T any](changed func(string) bool, name string, v T) *T {
	if !changed(name) {
		return nil
	}
	return &v
}

// overlaySamplers takes the profile's samplers unless the flags name any.
func overlaySamplers(p *profiles.Profile, w *watchOptions) {
	s := p.Samplers
	if len(w.targetPIDs) == 0 && len(w.targetProcs) == 0 && w.targetMetrics == "" {
		if s.TargetPID > 0 {
			w.targetPIDs = []int32{int32(s.TargetPID)}
		}
		if s.TargetProcess != "" {
			w.targetProcs = []string{s.TargetProcess}
		}
		w.targetMetrics = s.TargetMetrics
	}
	if w.promURL == "" && len(w.promQueries) == 0 && s.PromURL != "" {
		w.promURL = s.PromURL
		for _, name := range slices.Sorted(maps.Keys(s.PromQueries)) {
			w.promQueries = append(w.promQueries, name+"="+s.PromQueries[name])
		}
	}
}
