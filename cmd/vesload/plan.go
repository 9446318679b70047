package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/report"
)

// plan is a checked run: the engine's configuration and its redacted
// description for the result document.
type plan struct {
	cfg     loadgen.Config
	summary report.RunConfig
	url     string // "" until a target is known
	batch   bool
}

// buildPlan turns flags into a run configuration. Every error is bad input
// and names the flag it comes from.
func buildPlan(o *runOptions) (*plan, error) {
	if err := checkNumbers(o); err != nil {
		return nil, err
	}
	sched, err := loadgen.Constant(o.rps, o.duration)
	if err != nil {
		return nil, usagef("--rps/--duration: %v", err)
	}
	if sched.Total() == 0 {
		return nil, usagef("--rps %g for --duration %v schedules no request", o.rps, o.duration)
	}
	headers, err := parseHeaders(o.headers)
	if err != nil {
		return nil, err
	}
	password, err := readPassword(o.passFile)
	if err != nil {
		return nil, err
	}
	runID := newRunID()
	body, isBatch, err := buildBody(o, runID)
	if err != nil {
		return nil, err
	}
	p := &plan{batch: isBatch}
	p.cfg = loadgen.Config{
		Method:      "POST",
		Headers:     headers,
		User:        o.user,
		Password:    password,
		TLS:         loadgen.TLS{CAFile: o.cacert, CertFile: o.cert, KeyFile: o.key, Insecure: o.insecure},
		Schedule:    sched,
		Body:        body,
		Pool:        o.pool,
		PoolWait:    o.poolWait,
		Timeout:     o.timeout,
		KeepAlive:   o.keepAlive,
		NoPreflight: o.noPreflight,
		UserAgent:   "vesload/" + version,
	}
	p.summary = report.RunConfig{
		Method:     "POST",
		RPS:        o.rps,
		DurationS:  o.duration.Seconds(),
		Shape:      fmt.Sprintf("constant %g/s for %v", o.rps, o.duration),
		Pool:       o.pool,
		PoolWaitS:  o.poolWait.Seconds(),
		TimeoutS:   o.timeout.Seconds(),
		KeepAlive:  o.keepAlive,
		Event:      o.event,
		EventSize:  o.eventSize,
		Batch:      o.batch,
		BodyFile:   o.bodyFile,
		Headers:    redactHeaders(headers),
		User:       o.user,
		Insecure:   o.insecure,
		Thresholds: o.thresholds,
		RunID:      runID,
	}
	if o.bodyFile != "" {
		p.summary.Event = ""
	}
	if o.user != "" || password != "" {
		p.summary.Auth = "basic"
	}
	if o.url != "" {
		u, err := targetURL(o.url, isBatch)
		if err != nil {
			return nil, err
		}
		if u.User != nil {
			// Credentials in the URL are taken as basic auth and kept out
			// of everything written.
			if p.cfg.User == "" {
				p.cfg.User = u.User.Username()
				p.summary.User = p.cfg.User
			}
			if pw, ok := u.User.Password(); ok && p.cfg.Password == "" {
				p.cfg.Password = pw
			}
			p.summary.Auth = "basic"
			u.User = nil
		}
		p.url = u.String()
		p.cfg.URL = p.url
		p.summary.URL = p.url
	}
	return p, nil
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
	case o.eventSize < 0:
		return usagef("--event-size %d: want 0 or a number of bytes", o.eventSize)
	case o.batch < 0:
		return usagef("--batch %d: want 0 or a number of events", o.batch)
	case o.batch > 0 && o.bodyFile != "":
		return usagef("--batch does not apply to --body-file: a template that is an eventList is sent as a batch")
	case (o.cert == "") != (o.key == ""):
		return usagef("--cert and --key go together")
	}
	return nil
}

// targetURL checks a --url and appends /eventBatch for batches.
func targetURL(raw string, isBatch bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, usagef("--url %q: not a URL", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, usagef("--url %q: want an http:// or https:// URL", raw)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, usagef("--url %q: no host", raw)
	}
	if isBatch && !strings.HasSuffix(u.Path, "/eventBatch") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/eventBatch"
	}
	return u, nil
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

// readPassword reads the basic auth password from --password-file, else
// $VESLOAD_PASSWORD. A trailing newline in the file is not part of it.
func readPassword(path string) (string, error) {
	if path == "" {
		return os.Getenv("VESLOAD_PASSWORD"), nil
	}
	return readSecretFile("--password-file", path)
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

// buildBody returns the request body source and whether it is a batch.
func buildBody(o *runOptions, runID string) (loadgen.Body, bool, error) {
	if o.bodyFile != "" {
		vars, err := parseVars(o.vars)
		if err != nil {
			return nil, false, err
		}
		t, err := ves.LoadTemplate(o.bodyFile, ves.TemplateOptions{RunID: runID, Vars: vars})
		if err != nil {
			return nil, false, usagef("--body-file: %v", err)
		}
		return t, t.IsBatch(), nil
	}
	ev, err := ves.NewEvent(o.event, ves.EventOptions{RunID: runID, Size: o.eventSize, Batch: o.batch})
	if err != nil {
		return nil, false, usagef("--event %s: %v", o.event, err)
	}
	return ev, o.batch > 1, nil
}

func parseVars(raw []string) (map[string]string, error) {
	vars := make(map[string]string, len(raw))
	for _, kv := range raw {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--set %q: want NAME=VALUE", kv)
		}
		vars[k] = v
	}
	return vars, nil
}

// newRunID is a short random prefix that keeps event ids unique across runs.
func newRunID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "vesload"
	}
	return hex.EncodeToString(b[:])
}
