package main

import (
	"net/http"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/expect"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// checkNumbers checks the values of run's flags, so that each error names
// its flag rather than the scenario the value ends up in.
func checkNumbers(o *runOptions) error {
	if err := engine.CheckRate(o.rps); err != nil {
		return usagef("--rps %g: %v", o.rps, err)
	}
	switch {
	case o.rps == 0:
		return usagef("--rps 0: schedules no request: want a rate above 0")
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
	}
	if err := checkClientCert(o); err != nil {
		return err
	}
	if _, err := expect.Parse(o.expectStatus); err != nil {
		return usagef("--expect-status %v", err)
	}
	return checkFlagFiles(o)
}

// checkClientCert checks that the client certificate flags fit together:
// --cert with --key (PEM), or a PKCS#12 --cert with --cert-pass-file.
func checkClientCert(o *runOptions) error {
	store := tlsconf.Options{CertFile: o.cert, KeyFile: o.key, CertPassFile: o.certPass}.IsPKCS12()
	switch {
	case o.cert == "" && (o.key != "" || o.certPass != ""):
		return usagef("--key and --cert-pass-file need --cert")
	case o.cert == "":
		return nil
	case store && o.key != "":
		return usagef("--cert %s is a PKCS#12 store, which holds its key: give --cert-pass-file, not --key", o.cert)
	case !store && o.key == "":
		return usagef("--cert and --key go together (or give a PKCS#12 store such as client.p12 with --cert-pass-file)")
	}
	return nil
}

// checkFlagFiles checks the flags that name things outside: the URL, the
// event domain and the files, so that their errors name the flag rather
// than the scenario they end up in.
func checkFlagFiles(o *runOptions) error {
	if o.url != "" {
		if err := scenario.CheckURL(o.url); err != nil {
			return usagef("--url %v", err)
		}
	}
	if !slices.ContainsFunc(ves.Domains(), func(d string) bool { return strings.EqualFold(d, o.event) }) {
		return usagef("--event %q: want one of %s", o.event, strings.Join(ves.Domains(), ", "))
	}
	in := func(option, path string) scenario.InputFile { return scenario.InputFile{Option: option, Path: path} }
	if err := scenario.CheckInputFiles(in("--body-file", o.bodyFile), in("--password-file", o.passFile), in("--data-file", o.dataFile),
		in("--cacert", o.cacert), in("--cert", o.cert), in("--key", o.key), in("--cert-pass-file", o.certPass)); err != nil {
		return usage.Wrap(err)
	}
	return nil
}

// parseHeaders reads --header values ("Name: value").
func parseHeaders(raw []string) ([]transport.Header, error) {
	hs := make([]transport.Header, 0, len(raw))
	for _, h := range raw {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
			return nil, usagef("--header %q: want 'Name: value'", h)
		}
		// The value is a secret: the line names the header alone.
		if c := http.CanonicalHeaderKey(name); c == "Authorization" || c == "Proxy-Authorization" {
			return nil, usagef("--header %s: credentials are not given on the command line, where process listings show them: use --user with --password-file or $VESLOAD_PASSWORD (kube: --password-secret)", c)
		}
		if err := profiles.CheckHeaderName(name); err != nil {
			return nil, usagef("--header %v", err)
		}
		for _, prev := range hs {
			if strings.EqualFold(prev.Name, name) {
				return nil, usagef("--header %s given twice: one would replace the other on the wire; give it once", name)
			}
		}
		hs = append(hs, transport.Header{Name: name, Value: strings.TrimSpace(value)})
	}
	return hs, nil
}
