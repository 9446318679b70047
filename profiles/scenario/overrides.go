package scenario

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/threshold"
)

// Overrides are the values a command line lays over a profile. A nil
// field (or an empty list) leaves the profile's value; a set one wins, so
// `-profile ves-100rps-10m -duration 1m` is the same run, shorter. The
// rules live here, not in the command, so that every caller that builds
// a run from a profile and a few changed values overlays them alike; the
// errors name the values as `vesload run` spells its flags.
type Overrides struct {
	// RPS replaces the profile's load shape with a constant rate;
	// Duration alone stretches or shortens the profile's shape.
	RPS      *float64
	Duration *time.Duration

	Pool      *int
	PoolWait  *time.Duration
	Timeout   *time.Duration
	KeepAlive *bool

	URL *string
	// Headers are added to (or replace those of the same name in) the
	// profile's.
	Headers []transport.Header
	// User and PasswordFile set basic auth; without a password file or
	// variable, the password is read from $VESLOAD_PASSWORD.
	User, PasswordFile *string
	ExpectStatus       []string
	CACert             *string
	// ClientCert replaces the client certificate, key and PKCS#12
	// password file together.
	ClientCert *ClientCert
	Insecure   *bool

	// Request replaces the profile's requests with one.
	Request *profiles.Request
	// RawBody sends every template request's body as written.
	RawBody bool
	// DataFile and DataPer set the CSV rows that bind template
	// variables and who takes the next row.
	DataFile, DataPer *string
	// Thresholds are added to the profile's.
	Thresholds []string
	// Labels are added to the profile's (a label of the same key
	// replaces the profile's).
	Labels map[string]string
}

// ClientCert is a client certificate as the command line gives it: a PEM
// pair or a PKCS#12 store with its password file.
type ClientCert struct{ Cert, Key, PassFile string }

// Defaults fill what neither the profile nor an override sets: a run
// needs a load, a pool, a timeout, a keep-alive choice and a request.
type Defaults struct {
	RPS       float64
	Duration  time.Duration
	Pool      int
	Timeout   time.Duration
	KeepAlive bool
	Request   profiles.Request
}

// EventRequest is the one request of a run described without a profile
// (or whose request the command line replaces): a built-in event of
// domain event, padded to size, batched, or a body template file.
func EventRequest(event string, size, batch int, bodyFile string) profiles.Request {
	r := profiles.Request{Name: event, Weight: 1, Event: event, Size: size, Batch: batch, BodyFile: bodyFile}
	if bodyFile != "" {
		r.Name, r.Event = "template", ""
	}
	return r
}

// Apply lays o over p in place, filling from d what both leave unset.
func Apply(p *profiles.Profile, o Overrides, d Defaults) error {
	if err := applyLoad(p, o, d); err != nil {
		return err
	}
	setOr(&p.Pool, o.Pool, d.Pool, p.Pool == 0)
	if o.PoolWait != nil {
		p.PoolWait = *o.PoolWait
	}
	setOr(&p.Timeout, o.Timeout, d.Timeout, p.Timeout == 0)
	if o.KeepAlive != nil || p.KeepAlive == nil {
		ka := d.KeepAlive
		set(&ka, o.KeepAlive)
		p.KeepAlive = &ka
	}
	applyTarget(&p.Target, o)
	if o.Request != nil {
		p.Requests = []profiles.Request{*o.Request}
	} else if len(p.Requests) == 0 {
		p.Requests = []profiles.Request{d.Request}
	}
	if o.RawBody {
		for i := range p.Requests {
			p.Requests[i].RawBody = p.Requests[i].Body != "" || p.Requests[i].BodyFile != ""
		}
	}
	if o.DataFile != nil || o.DataPer != nil {
		if p.Data == nil {
			p.Data = &profiles.Data{}
		}
		set(&p.Data.File, o.DataFile)
		if o.DataFile != nil {
			p.Data.Option = "--data-file"
		}
		set(&p.Data.Per, o.DataPer)
		if err := checkDataPer(p.Data, o.DataPer != nil); err != nil {
			return err
		}
	}
	for _, t := range o.Thresholds { // the profile's own are checked where it is read
		if _, err := threshold.Parse(t); err != nil {
			return fmt.Errorf("--threshold: %w", err)
		}
	}
	p.Thresholds = append(append([]string(nil), p.Thresholds...), o.Thresholds...)
	if len(o.Labels) > 0 {
		p.Labels = maps.Clone(p.Labels)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		maps.Copy(p.Labels, o.Labels)
	}
	return nil
}

// setOr sets *dst to *v when given, else to def when fill.
func setOr[T any](dst *T, v *T, def T, fill bool) {
	switch {
	case v != nil:
		*dst = *v
	case fill:
		*dst = def
	}
}

// set sets *dst to *v when given.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// applyLoad sets the load shape: RPS replaces the profile's shape with a
// constant rate (for the profile's length unless Duration is given),
// Duration alone stretches or shortens it.
func applyLoad(p *profiles.Profile, o Overrides, d Defaults) error {
	switch {
	case p.Load.IsZero() || o.RPS != nil:
		rps, dur := d.RPS, d.Duration
		set(&rps, o.RPS)
		if !p.Load.IsZero() {
			dur = p.Load.TotalDuration()
		}
		set(&dur, o.Duration)
		p.Load = profiles.Shape{RPS: rps, Duration: dur}
	case o.Duration != nil:
		s, err := p.Load.WithDuration(*o.Duration)
		if err != nil {
			return fmt.Errorf("--duration: %w", err)
		}
		p.Load = s
	}
	return nil
}

func applyTarget(t *profiles.Target, o Overrides) {
	set(&t.URL, o.URL)
	if len(o.Headers) > 0 && t.Headers == nil {
		t.Headers = map[string]string{}
	}
	for _, h := range o.Headers {
		for name := range t.Headers {
			if strings.EqualFold(name, h.Name) {
				delete(t.Headers, name) // one header on the wire, whatever its case
			}
		}
		t.Headers[h.Name] = h.Value
	}
	if o.User != nil || o.PasswordFile != nil {
		if t.Auth == nil {
			t.Auth = &profiles.Auth{}
		}
		set(&t.Auth.User, o.User)
		if o.PasswordFile != nil {
			t.Auth.PasswordFile, t.Auth.PasswordEnv = *o.PasswordFile, ""
		}
		if t.Auth.PasswordFile == "" && t.Auth.PasswordEnv == "" {
			t.Auth.PasswordEnv = passwordEnv
		}
	}
	if o.ExpectStatus != nil {
		t.ExpectStatus = o.ExpectStatus
	}
	if o.CACert != nil || o.ClientCert != nil || o.Insecure != nil {
		if t.TLS == nil {
			t.TLS = &profiles.TLS{}
		}
		set(&t.TLS.CACert, o.CACert)
		if c := o.ClientCert; c != nil {
			t.TLS.Cert, t.TLS.Key, t.TLS.CertPassFile = c.Cert, c.Key, c.PassFile
		}
		set(&t.TLS.Insecure, o.Insecure)
	}
}

// checkDataPer refuses a data-per value other than request or worker, or
// one without a data file to take rows from, before the empty file name
// reaches open.
func checkDataPer(d *profiles.Data, perGiven bool) error {
	if !perGiven {
		return nil
	}
	switch d.Per {
	case profiles.DataPerRequest, profiles.DataPerWorker:
	default:
		return fmt.Errorf("--data-per: want %s or %s, got %q", profiles.DataPerRequest, profiles.DataPerWorker, d.Per)
	}
	if d.File == "" {
		return fmt.Errorf("--data-per %s: give the rows with --data-file FILE (or data.file in the profile)", d.Per)
	}
	return nil
}
