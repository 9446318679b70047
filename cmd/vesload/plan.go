package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/result"
)

// plan is a checked run: the engine's configuration and its redacted
// description for the result document.
type plan struct {
	cfg     loadgen.Config
	summary result.RunConfig
	url     string // the target URL as written in results (no credentials)
	label   string // the request label of per-request outputs
}

// buildPlan turns a resolved scenario into the engine's configuration.
// The scenario's target URL must be set (the caller starts the emulator
// when it is not). runID prefixes the eventIds (empty: a random one).
// Every error is bad input.
func buildPlan(p *profiles.Profile, noPreflight bool, runID string) (*plan, error) {
	u, err := targetURL(p.Target.URL)
	if err != nil {
		return nil, err
	}
	user, password, err := credentials(p.Target.Auth, u)
	if err != nil {
		return nil, err
	}
	u.User = nil
	pl := &plan{url: u.String()}
	pl.cfg = loadgen.Config{
		URL:         pl.url,
		Method:      p.Target.Method,
		Headers:     sortedHeaders(p.Target.Headers),
		User:        user,
		Password:    password,
		Pool:        p.Pool,
		PoolWait:    p.PoolWait,
		Timeout:     p.Timeout,
		KeepAlive:   p.KeepAliveOn(),
		NoPreflight: noPreflight,
		UserAgent:   "vesload/" + version,
	}
	if pl.cfg.Method == "" {
		pl.cfg.Method = "POST"
	}
	if t := p.Target.TLS; t != nil {
		pl.cfg.TLS = loadgen.TLS{CAFile: t.CACert, CertFile: t.Cert, KeyFile: t.Key, Insecure: t.Insecure}
	}
	if err := setLoad(&pl.cfg, p.Load); err != nil {
		return nil, err
	}
	if runID == "" {
		runID = newRunID()
	}
	if err := setRequests(pl, p, u, runID); err != nil {
		return nil, err
	}
	pl.summary = summarize(p, pl, runID)
	return pl, nil
}

// setLoad maps the scenario's load shape onto the engine: open shapes to
// a schedule, the concurrency ramp to the closed model, and N producers
// each sending every interval to the open rate N/interval.
func setLoad(cfg *loadgen.Config, s profiles.Shape) error {
	var segs []loadgen.Segment
	if open, ok := s.Open(); ok {
		for _, g := range open {
			segs = append(segs, loadgen.Segment{From: g.From, To: g.To, Duration: g.Duration})
		}
	}
	switch {
	case s.Closed != nil:
		cfg.Closed = &loadgen.Closed{Concurrency: s.Closed.Concurrency, Step: s.Closed.Step}
		for _, c := range s.Closed.Concurrency {
			cfg.Pool = max(cfg.Pool, c)
		}
		return nil
	case s.Producers != nil:
		pr := s.Producers
		rate := float64(pr.Count) / pr.Interval.Seconds()
		segs = []loadgen.Segment{{From: rate, To: rate, Duration: time.Duration(pr.Messages) * pr.Interval}}
	}
	sched, err := loadgen.NewSchedule(segs...)
	if err != nil {
		return usagef("load shape: %v", err)
	}
	if sched.Total() == 0 {
		return usagef("load shape %s schedules no request (rate × duration < 1)", s.Kind())
	}
	cfg.Schedule = sched
	return nil
}

// setRequests builds the body of every request kind of the mix.
func setRequests(pl *plan, p *profiles.Profile, base *url.URL, runID string) error {
	mix := make([]loadgen.Request, 0, len(p.Requests))
	for _, r := range p.Requests {
		body, batch, err := requestBody(r, p.Vars, runID)
		if err != nil {
			return err
		}
		u := *base
		if r.Path != "" {
			u.Path = r.Path
		}
		if batch && !strings.HasSuffix(u.Path, "/eventBatch") {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/eventBatch"
		}
		mix = append(mix, loadgen.Request{Name: r.Name, URL: u.String(), Body: body, Headers: sortedHeaders(r.Headers), Weight: max(r.Weight, 1)})
	}
	if len(mix) == 1 {
		pl.cfg.URL, pl.cfg.Body = mix[0].URL, mix[0].Body
		pl.cfg.Headers = append(pl.cfg.Headers, mix[0].Headers...)
		pl.url = mix[0].URL
		pl.label = requestLabel(p.Requests[0])
		return nil
	}
	pl.cfg.Mix = mix
	pl.label = "mix"
	return nil
}

// requestBody returns the body source of one request kind and whether it
// is a batch.
func requestBody(r profiles.Request, vars map[string]string, runID string) (loadgen.Body, bool, error) {
	opts := ves.TemplateOptions{RunID: runID, Vars: vars}
	switch {
	case r.BodyFile != "":
		t, err := ves.LoadTemplate(r.BodyFile, opts)
		if err != nil {
			return nil, false, usagef("body file: %v", err)
		}
		return t, t.IsBatch(), nil
	case r.Body != "":
		t, err := ves.CompileTemplate([]byte(r.Body), opts)
		if err != nil {
			return nil, false, usagef("request %s: body: %v", r.Name, err)
		}
		return t, t.IsBatch(), nil
	}
	event := r.Event
	if event == "" {
		event = "fault"
	}
	ev, err := ves.NewEvent(event, ves.EventOptions{RunID: runID, Size: r.Size, Batch: r.Batch})
	if err != nil {
		return nil, false, usagef("--event %s: %v", event, err)
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

// credentials returns the basic auth user and password: from the
// scenario's auth (a password file or environment variable), else from
// the URL's user info, else $VESLOAD_PASSWORD with the user.
func credentials(a *profiles.Auth, u *url.URL) (user, password string, err error) {
	if a != nil {
		user = a.User
		switch {
		case a.PasswordFile != "":
			if password, err = readSecretFile("--password-file", a.PasswordFile); err != nil {
				return "", "", err
			}
		case a.PasswordEnv != "":
			password = os.Getenv(a.PasswordEnv)
		}
	}
	if u.User != nil {
		if user == "" {
			user = u.User.Username()
		}
		if pw, ok := u.User.Password(); ok && password == "" {
			password = pw
		}
	}
	if password == "" && user != "" {
		password = os.Getenv("VESLOAD_PASSWORD")
	}
	return user, password, nil
}

// summarize is the redacted description of the run for the result.
func summarize(p *profiles.Profile, pl *plan, runID string) result.RunConfig {
	c := pl.cfg
	rc := result.RunConfig{
		URL:        pl.url,
		Method:     c.Method,
		DurationS:  p.Load.TotalDuration().Seconds(),
		Shape:      describeShape(p.Load),
		Pool:       c.Pool,
		PoolWaitS:  c.PoolWait.Seconds(),
		TimeoutS:   c.Timeout.Seconds(),
		KeepAlive:  c.KeepAlive,
		Profile:    p.Name,
		Headers:    redactHeaders(c.Headers),
		User:       c.User,
		Insecure:   c.TLS.Insecure,
		Thresholds: p.Thresholds,
		RunID:      runID,
	}
	if c.Schedule != nil {
		rc.RPS = c.Schedule.MeanRate()
	}
	if c.User != "" || c.Password != "" {
		rc.Auth = "basic"
	}
	if len(p.Requests) == 1 {
		r := p.Requests[0]
		rc.EventSize, rc.Batch, rc.BodyFile = r.Size, r.Batch, r.BodyFile
		if r.BodyFile == "" && r.Body == "" {
			rc.Event = r.Event
			if rc.Event == "" {
				rc.Event = "fault"
			}
		}
	}
	return rc
}

// describeShape says in a few words what load the run applied.
func describeShape(s profiles.Shape) string {
	switch {
	case s.Closed != nil:
		c := s.Closed
		return fmt.Sprintf("closed, concurrency %v, %s each", c.Concurrency, profiles.FormatDuration(c.Step))
	case s.Producers != nil:
		pr := s.Producers
		return fmt.Sprintf("%d producers × %d messages every %s", pr.Count, pr.Messages, profiles.FormatDuration(pr.Interval))
	case s.Ramp != nil:
		return fmt.Sprintf("ramp %g→%g/s over %s", s.Ramp.From, s.Ramp.To, profiles.FormatDuration(s.Ramp.Over))
	case len(s.Stages) > 0:
		return fmt.Sprintf("%d stages over %s", len(s.Stages), profiles.FormatDuration(s.TotalDuration().Round(time.Millisecond)))
	}
	segs, _ := s.Open()
	if len(segs) == 1 {
		return fmt.Sprintf("constant %g/s for %s", segs[0].From, profiles.FormatDuration(s.Duration))
	}
	return s.Kind()
}

func sortedHeaders(m map[string]string) []loadgen.Header {
	hs := make([]loadgen.Header, 0, len(m))
	for _, name := range sortedNames(m) {
		hs = append(hs, loadgen.Header{Name: name, Value: m[name]})
	}
	return hs
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func checkNumbers(o *runOptions) error {
	switch {
	case o.rps <= 0 || math.IsNaN(o.rps) || math.IsInf(o.rps, 0):
		return usagef("--rps %g: want a positive number of requests per second", o.rps)
	case o.duration <= 0:
		return usagef("--duration %v: want a positive duration such as 30s or 10m", o.duration)
	case o.pool < 1:
		return usagef("--pool %d: want at least 1 connection", o.pool)
	case o.poolWait < 0:
		return usagef("--pool-wait %v: want 0 or a positive duration", o.poolWait)
	case o.timeout <= 0:
		return usagef("--timeout %v: want a positive duration", o.timeout)
	case o.checkpoint < 0:
		return usagef("--checkpoint %v: want 0 or a positive duration", o.checkpoint)
	case o.eventSize < 0:
		return usagef("--event-size %d: want 0 or a number of bytes", o.eventSize)
	case o.batch < 0:
		return usagef("--batch %d: want 0 or a number of events", o.batch)
	case o.batch > 0 && o.bodyFile != "":
		return usagef("--batch does not apply to --body-file: a template that is an eventList is sent as a batch")
	case (o.cert == "") != (o.key == ""):
		return usagef("--cert and --key go together")
	}
	return checkFlagFiles(o)
}

// checkFlagFiles checks the flags that name things outside: the URL, the
// event domain and the files, so that their errors name the flag rather
// than the scenario they end up in.
func checkFlagFiles(o *runOptions) error {
	if o.url != "" {
		if _, err := targetURL(o.url); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(ves.Domains(), func(d string) bool { return strings.EqualFold(d, o.event) }) {
		return usagef("--event %q: want one of %s", o.event, strings.Join(ves.Domains(), ", "))
	}
	for _, f := range []struct{ flag, path string }{
		{"--body-file", o.bodyFile}, {"--password-file", o.passFile},
		{"--cacert", o.cacert}, {"--cert", o.cert}, {"--key", o.key},
	} {
		if f.path == "" {
			continue
		}
		if st, err := os.Stat(f.path); err != nil {
			return usagef("%s: %v", f.flag, err)
		} else if st.IsDir() {
			return usagef("%s %s: is a folder, want a file", f.flag, f.path)
		}
	}
	return nil
}

// targetURL checks the target URL.
func targetURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, usagef("--url %q: not a URL", redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, usagef("--url %q: want an http:// or https:// URL", redactURL(raw))
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, usagef("--url %q: no host", redactURL(raw))
	}
	return u, nil
}

// redactURL hides a password in a URL that is about to be printed.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	if i := strings.LastIndexByte(raw, '@'); i >= 0 {
		return "…" + raw[i:]
	}
	return raw
}

func parseHeaders(raw []string) ([]loadgen.Header, error) {
	hs := make([]loadgen.Header, 0, len(raw))
	for _, h := range raw {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
			return nil, usagef("--header %q: want 'Name: value'", h)
		}
		hs = append(hs, loadgen.Header{Name: name, Value: strings.TrimSpace(value)})
	}
	return hs, nil
}

// secretHeaders are header names whose values never reach a result.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token"}

func redactHeaders(hs []loadgen.Header) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		v := h.Value
		for _, s := range secretHeaders {
			if strings.EqualFold(h.Name, s) {
				v = "REDACTED"
			}
		}
		m[h.Name] = v
	}
	return m
}

// readSecretFile reads a password from a file; a trailing newline is not
// part of it. Errors name the flag, never the content.
func readSecretFile(flag, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", usagef("%s: %v", flag, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

func vesDomains() []string { return ves.Domains() }

// newRunID is a short random prefix that keeps event ids unique across runs.
func newRunID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "vesload"
	}
	return hex.EncodeToString(b[:])
}
