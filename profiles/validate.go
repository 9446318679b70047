package profiles

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Validate checks the profile's values and their combinations: one load
// shape, positive rates and durations, a well-formed URL, unique request
// names with positive weights and known VES domains, no credentials in
// clear. It returns a *FieldError naming the offending key; Parse turns it
// into file:line:column.
func (p *Profile) Validate() error {
	checks := []func() error{
		p.validateProtocol,
		p.validateVars,
		p.validateTarget,
		p.validateRun,
		p.Load.validate,
		func() error { return validateRequests(p.Requests) },
		p.Samplers.validate,
		p.validateThresholds,
		p.validateLabels,
		p.validateExpectStatus,
		p.Data.validate,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// Protocols a profile may name.
const (
	ProtocolVES   = "ves"
	ProtocolHVVES = "hv-ves"
)

func (p *Profile) validateProtocol() error {
	switch p.Protocol {
	case "", ProtocolVES:
		return nil
	case ProtocolHVVES:
		if p.Load.Producers == nil {
			return fmt.Errorf("protocol: an hv-ves profile needs load.producers (producers, messages and an interval)")
		}
		return nil
	}
	return fmt.Errorf("protocol: %q is not a protocol (want %s or %s)", p.Protocol, ProtocolVES, ProtocolHVVES)
}

func (p *Profile) validateVars() error {
	for _, name := range slices.Sorted(maps.Keys(p.Vars)) {
		if !ValidVarName(name) {
			return fieldErr("vars."+name, "%q: want a variable name of letters, digits and _ not starting with a digit or __", name)
		}
	}
	return nil
}

var methods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

func (p *Profile) validateTarget() error {
	t := &p.Target
	if t.URL != "" {
		if err := validateURL("target.url", t.URL, "http", "https"); err != nil {
			return err
		}
	}
	if t.Method != "" && !slices.Contains(methods, t.Method) {
		return fieldErr("target.method", "%q: want one of %s", t.Method, strings.Join(methods, ", "))
	}
	if err := validateHeaders("target.headers", t.Headers); err != nil {
		return err
	}
	if a := t.Auth; a != nil {
		switch {
		case a.PasswordFile != "" && a.PasswordEnv != "":
			return fieldErr("target.auth", "both password_file and password_env: want one of them")
		case a.PasswordFile == "" && a.PasswordEnv == "":
			return fieldErr("target.auth", "no password_file or password_env: want where to read the password from")
		case a.User == "":
			return fieldErr("target.auth.user", "missing: want the user name for basic authentication")
		case a.PasswordEnv != "" && !validEnvName(a.PasswordEnv):
			return fieldErr("target.auth.password_env", "%q: want an environment variable name such as VESLOAD_PASSWORD", a.PasswordEnv)
		}
	}
	if c := t.TLS; c != nil {
		if err := c.validate(); err != nil {
			return err
		}
	}
	return nil
}

// MissingScheme says, for a URL written without "scheme://"
// ("collector:8443/eventListener/v7", which url.Parse reads as no URL or
// as a scheme "collector"), that the scheme is missing and how to write
// it; "" for a URL with one. Quoting raw is the caller's (redacted).
func MissingScheme(raw string) string {
	if raw == "" || strings.Contains(raw, "://") {
		return ""
	}
	return fmt.Sprintf("the scheme is missing: write https://%s (or http:// for a plain port)", redact.URL(raw))
}

// validateURL checks an absolute URL. A URL with ${NAME} placeholders is
// checked with each placeholder standing for "1" (a host, port or path
// segment) when that parses, and fully once Resolve has set them.
func validateURL(path, raw string, schemes ...string) error {
	templated := strings.Contains(raw, "${")
	if msg := MissingScheme(raw); msg != "" && !templated {
		return fieldErr(path, "%q: %s", redact.URL(raw), msg)
	}
	u, err := url.Parse(placeholderFree(raw))
	if err != nil && templated {
		return nil
	}
	if err != nil {
		return fieldErr(path, "%q is not a URL: want e.g. https://collector:8443/eventListener/v7", redact.URL(raw))
	}
	if !slices.Contains(schemes, u.Scheme) && templated && strings.Contains(raw[:max(0, strings.Index(raw, ":"))], "${") {
		return nil // the scheme itself is a placeholder
	}
	if !slices.Contains(schemes, u.Scheme) || u.Host == "" {
		return fieldErr(path, "%q: want an absolute %s URL with a host", redact.URL(raw), strings.Join(schemes, " or "))
	}
	return nil
}

// placeholderFree replaces ${…} placeholders with a neutral word, so that
// a templated URL can be checked for shape.
func placeholderFree(s string) string {
	return ReplacePlaceholders(s, func(string) string { return "1" })
}

func (p *Profile) validateRun() error {
	switch {
	case p.Pool < 0 || p.Pool > 1_000_000:
		return fieldErr("pool", "%d: want a number of connections between 1 and 1000000", p.Pool)
	case p.PoolWait < 0:
		return fieldErr("pool_wait", "negative: want a duration such as 100ms, or 0 to fail at once")
	case p.Timeout < 0:
		return fieldErr("timeout", "negative: want a duration such as 10s")
	}
	return nil
}

func (s *Samplers) validate() error {
	if s.TargetPID < 0 {
		return fieldErr("samplers.target_pid", "%d: want a process id", s.TargetPID)
	}
	if s.TargetPID > 0 && s.TargetProcess != "" {
		return fieldErr("samplers", "both target_pid and target_process: want one of them")
	}
	if s.TargetMetrics != "" {
		if err := validateURL("samplers.target_metrics", s.TargetMetrics, "http", "https"); err != nil {
			return err
		}
	}
	if s.PromURL != "" {
		if err := validateURL("samplers.prom_url", s.PromURL, "http", "https"); err != nil {
			return err
		}
	}
	if len(s.PromQueries) > 0 && s.PromURL == "" {
		return fieldErr("samplers.prom_queries", "given without prom_url: want the Prometheus server to query")
	}
	for _, name := range slices.Sorted(maps.Keys(s.PromQueries)) {
		if strings.TrimSpace(s.PromQueries[name]) == "" {
			return fieldErr("samplers.prom_queries."+name, "empty: want a PromQL query")
		}
	}
	return nil
}

// validateThresholds parses every threshold as a run would, so that a
// broken one is refused at its line, by `vesload profiles check` and
// by the run alike, not later as a flag the user never gave.
func (p *Profile) validateThresholds() error {
	for i, t := range p.Thresholds {
		if strings.TrimSpace(t) == "" || strings.ContainsAny(t, "\r\n") {
			return fieldErr(fmt.Sprintf("thresholds[%d]", i), "want one expression such as p99<500ms")
		}
		if _, err := threshold.Parse(t); err != nil {
			return fieldErr(fmt.Sprintf("thresholds[%d]", i), "%v", err)
		}
	}
	return nil
}

func (p *Profile) validateLabels() error {
	for _, k := range slices.Sorted(maps.Keys(p.Labels)) {
		if err := result.CheckLabel(k, p.Labels[k]); err != nil {
			return fieldErr("labels."+k, "%v", err)
		}
	}
	return nil
}

// applyDefaults fills what a profile may leave out: the POST method and
// the request mix (one fault event), request weights and names. weights
// says which requests gave a weight explicitly, so an explicit 0 stays an
// error rather than becoming 1.
func (p *Profile) applyDefaults(weightGiven func(i int) bool) {
	if p.Target.Method == "" {
		p.Target.Method = "POST"
	}
	if len(p.Requests) == 0 {
		p.Requests = []Request{DefaultRequest()}
		return
	}
	for i := range p.Requests {
		p.Requests[i].applyDefaults(i, weightGiven(i))
	}
}

func validEnvName(s string) bool { return validIdent(s) }
