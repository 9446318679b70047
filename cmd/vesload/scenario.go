package main

import (
	"maps"
	"slices"

	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// resolveScenario returns the run described by -profile (built-in name or
// file) with every flag the user gave laid over it, and with its variables
// bound and resolved. Without -profile the flags alone describe the run.
// Flags always win, so `-profile ves-100rps-10m -duration 1m` is the same
// run, shorter.
func resolveScenario(o *runOptions, changed func(string) bool) (*profiles.Profile, error) {
	p := &profiles.Profile{}
	if o.profile != "" {
		loaded, err := profiles.Load(o.profile)
		if err != nil {
			return nil, usagef("-profile: %v", err)
		}
		p = loaded
	}
	if err := overlayLoad(p, o, changed); err != nil {
		return nil, err
	}
	overlayConnection(p, o, changed)
	if err := overlayTarget(p, o, changed); err != nil {
		return nil, err
	}
	if len(p.Requests) == 0 || changed("event") || changed("event-size") || changed("batch") || changed("body-file") {
		r := profiles.Request{Name: o.event, Weight: 1, Event: o.event, Size: o.eventSize, Batch: o.batch, BodyFile: o.bodyFile}
		if o.bodyFile != "" {
			r.Name, r.Event = "template", ""
		}
		p.Requests = []profiles.Request{r}
	}
	if o.rawBody {
		for i := range p.Requests {
			p.Requests[i].RawBody = p.Requests[i].Body != "" || p.Requests[i].BodyFile != ""
		}
	}
	if changed("data-file") || changed("data-per") {
		if p.Data == nil {
			p.Data = &profiles.Data{}
		}
		if changed("data-file") {
			p.Data.File = o.dataFile
		}
		if changed("data-per") {
			p.Data.Per = o.dataPer
		}
		if err := checkDataPer(p.Data, changed("data-per")); err != nil {
			return nil, err
		}
	}
	p.Thresholds = append(append([]string(nil), p.Thresholds...), o.thresholds...)
	overlaySamplers(p, &o.watch)
	resolved, err := scenario.Resolve(p, o.vars)
	if err != nil {
		return nil, usageError{err}
	}
	return resolved, nil
}

// overlayLoad sets the load shape: --rps replaces the profile's shape with
// a constant rate, --duration alone stretches or shortens it.
func overlayLoad(p *profiles.Profile, o *runOptions, changed func(string) bool) error {
	switch {
	case p.Load.IsZero() || changed("rps"):
		d := o.duration
		if !changed("duration") && !p.Load.IsZero() {
			d = p.Load.TotalDuration()
		}
		p.Load = profiles.Shape{RPS: o.rps, Duration: d}
	case changed("duration"):
		s, err := p.Load.WithDuration(o.duration)
		if err != nil {
			return usagef("--duration: %v", err)
		}
		p.Load = s
	}
	return nil
}

// overlayConnection applies the pool and timeout flags where given, and
// their defaults where the profile is silent.
func overlayConnection(p *profiles.Profile, o *runOptions, changed func(string) bool) {
	if changed("pool") || p.Pool == 0 {
		p.Pool = o.pool
	}
	if changed("pool-wait") {
		p.PoolWait = o.poolWait
	}
	if changed("timeout") || p.Timeout == 0 {
		p.Timeout = o.timeout
	}
	if changed("keepalive") || p.KeepAlive == nil {
		ka := o.keepAlive
		p.KeepAlive = &ka
	}
}

func overlayTarget(p *profiles.Profile, o *runOptions, changed func(string) bool) error {
	t := &p.Target
	if changed("url") {
		t.URL = o.url
	}
	if len(o.headers) > 0 {
		hs, err := parseHeaders(o.headers)
		if err != nil {
			return err
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		for _, h := range hs {
			t.Headers[h.Name] = h.Value
		}
	}
	if changed("user") || changed("password-file") {
		if t.Auth == nil {
			t.Auth = &profiles.Auth{}
		}
		if changed("user") {
			t.Auth.User = o.user
		}
		if changed("password-file") {
			t.Auth.PasswordFile, t.Auth.PasswordEnv = o.passFile, ""
		}
		if t.Auth.PasswordFile == "" && t.Auth.PasswordEnv == "" {
			t.Auth.PasswordEnv = "VESLOAD_PASSWORD" // --password-file's documented default
		}
	}
	if changed("expect-status") {
		t.ExpectStatus = o.expectStatus
	}
	if changed("cacert") || changed("cert") || changed("key") || changed("cert-pass-file") || changed("insecure") {
		if t.TLS == nil {
			t.TLS = &profiles.TLS{}
		}
		if changed("cacert") {
			t.TLS.CACert = o.cacert
		}
		if changed("cert") || changed("key") || changed("cert-pass-file") {
			t.TLS.Cert, t.TLS.Key, t.TLS.CertPassFile = o.cert, o.key, o.certPass
		}
		if changed("insecure") {
			t.TLS.Insecure = o.insecure
		}
	}
	return nil
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

// checkDataPer refuses --data-per with a value other than request or
// worker, or without a data file to take rows from, before the empty file
// name reaches open.
func checkDataPer(d *profiles.Data, perGiven bool) error {
	if !perGiven {
		return nil
	}
	switch d.Per {
	case profiles.DataPerRequest, profiles.DataPerWorker:
	default:
		return usagef("--data-per: want %s or %s, got %q", profiles.DataPerRequest, profiles.DataPerWorker, d.Per)
	}
	if d.File == "" {
		return usagef("--data-per %s: give the rows with --data-file FILE (or data.file in the profile)", d.Per)
	}
	return nil
}
