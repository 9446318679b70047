package jmx

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/vesload/vesload/profiles"
)

// buildTarget fills the profile's target and request mix from the
// groups' samplers. Identical samplers in several groups (as in plans
// that repeat one request per step) become one request; headers common to
// every request go to the target.
func (imp *importer) buildTarget(p *profiles.Profile, groups []*group) {
	reqs := unique(groups)
	first := reqs[0]
	p.Target.URL = baseURL(first) + first.path
	if hostless(first) {
		p.Target.URL = ""
		imp.warn(first.el, "no host: the profile has no target URL; give it with --url")
	}
	p.Target.Method = first.method
	common := commonHeaders(reqs)
	if len(common) > 0 {
		p.Target.Headers = common
	}
	imp.targetOptions(p, reqs)
	names := map[string]int{}
	for _, r := range reqs {
		q := profiles.Request{Name: r.name, Weight: r.weight, Body: r.body}
		if n := names[r.name]; n > 0 {
			q.Name = fmt.Sprintf("%s %d", r.name, n+1)
		}
		names[r.name]++
		if r.path != first.path || p.Target.URL == "" && r.path != "" {
			q.Path = r.path
		}
		for k, v := range r.headers {
			if _, ok := common[k]; !ok {
				if q.Headers == nil {
					q.Headers = map[string]string{}
				}
				q.Headers[k] = v
			}
		}
		if r.method != first.method {
			imp.warn(r.el, "method %s differs from the first sampler's %s: vesload sends every request with target.method", r.method, first.method)
		}
		if baseURL(r) != baseURL(first) && !hostless(r) {
			imp.warn(r.el, "sends to %s: vesload sends every request to target.url's host (%s); only the path is kept", baseURL(r), baseURL(first))
		}
		p.Requests = append(p.Requests, q)
	}
}

// targetOptions sets authentication, keep-alive, timeout and reports TLS.
func (imp *importer) targetOptions(p *profiles.Profile, reqs []*request) {
	keep, respMS, connMS := true, 0, 0
	for _, r := range reqs {
		if r.user != "" {
			if p.Target.Auth == nil {
				p.Target.Auth = &profiles.Auth{User: r.user, PasswordEnv: passwordEnv}
			} else if p.Target.Auth.User != r.user {
				imp.warn(r.el, "authenticates as %s, another user than the first sampler's: vesload uses one user, %s", r.user, p.Target.Auth.User)
			}
		}
		if !r.keepAlive {
			keep = false
		}
		respMS, connMS = max(respMS, r.respMS), max(connMS, r.connectMS)
		if r.scheme == "https" {
			imp.warnOnce("tls", r.el, "JMeter accepts any server certificate; vesload verifies it: set target.tls.cacert (or insecure: true) for a self-signed collector")
		}
	}
	p.KeepAlive = &keep
	if connMS > respMS {
		imp.warn(reqs[0].el, "connect timeout %d ms: vesload has one timeout per request, set to it", connMS)
	}
	if t := max(respMS, connMS); t > 0 {
		p.Timeout = time.Duration(t) * time.Millisecond
	}
}

// baseURL is scheme://host[:port], without a default port.
func baseURL(r *request) string {
	u := r.scheme + "://" + r.host
	if r.port != "" && !(r.scheme == "http" && r.port == "80") && !(r.scheme == "https" && r.port == "443") {
		u += ":" + r.port
	}
	return u
}

// unique lists the groups' requests once each, in plan order; a request
// repeated across groups keeps its first weight.
func unique(groups []*group) []*request {
	var out []*request
	for _, g := range groups {
		for _, r := range g.requests {
			if !slices.ContainsFunc(out, func(o *request) bool { return sameRequest(o, r) }) {
				out = append(out, r)
			}
		}
	}
	return out
}

func sameRequest(a, b *request) bool {
	return a.name == b.name && a.method == b.method && baseURL(a) == baseURL(b) && a.path == b.path &&
		a.body == b.body && a.user == b.user && maps.Equal(a.headers, b.headers)
}

// commonHeaders are the headers every request sends with the same value.
func commonHeaders(reqs []*request) map[string]string {
	common := maps.Clone(reqs[0].headers)
	for _, r := range reqs[1:] {
		for k, v := range common {
			if rv, ok := r.headers[k]; !ok || rv != v {
				delete(common, k)
			}
		}
	}
	if len(common) == 0 {
		return nil
	}
	return common
}

// hostless reports samplers without a host: the profile then has no URL.
func hostless(r *request) bool { return strings.TrimSpace(r.host) == "" }
