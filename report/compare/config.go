package compare

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// MismatchError says that two runs were not asked the same thing, so that
// their figures are not comparable: which field differs, in which runs,
// with which values.
type MismatchError struct {
	Field          string // rps, duration_s, event, event_size, batch, body_file, path, auth, expect_status
	RunA, RunB     string // the runs' labels
	ValueA, ValueB string
}

// Error names the field and both runs with their values, on one line.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("config differs in %s: %s has %s, %s has %s", e.Field, e.RunA, e.ValueA, e.RunB, e.ValueB)
}

// configField is one setting that must agree between compared runs.
type configField struct {
	name string
	get  func(result.RunConfig) string
}

// configFields are the settings that change what is measured: the rate,
// the duration, the body and where it is sent. The host is left out on
// purpose: A and B are usually two deployments.
func configFields() []configField {
	str := func(s string) string {
		if s == "" {
			return "none"
		}
		return strconv.Quote(s)
	}
	return []configField{
		{"rps", func(c result.RunConfig) string { return format.Exact(c.RPS) }},
		{"duration_s", func(c result.RunConfig) string { return format.Exact(c.DurationS) }},
		{"event", func(c result.RunConfig) string { return str(c.Event) }},
		{"event_size", func(c result.RunConfig) string { return strconv.Itoa(c.EventSize) }},
		{"batch", func(c result.RunConfig) string { return strconv.Itoa(c.Batch) }},
		{"body_file", func(c result.RunConfig) string { return str(c.BodyFile) }},
		{"path", func(c result.RunConfig) string { return str(urlPath(c.URL)) }},
		// The collector pays a BCrypt check per basic-auth request and
		// none for a client certificate: the mode changes its CPU.
		{"auth", func(c result.RunConfig) string { return authOf(c) }},
		// What counts as success decides the error rate.
		{"expect_status", func(c result.RunConfig) string { return expectOf(c) }},
	}
}

// authOf is a run's auth mode; results written before the mode was
// recorded say nothing when no auth was used.
func authOf(c result.RunConfig) string {
	if c.Auth == "" {
		return "none"
	}
	return c.Auth
}

// expectOf is a run's expected statuses, 2xx unless it said otherwise.
func expectOf(c result.RunConfig) string {
	if c.ExpectStatus == "" {
		return "2xx"
	}
	return c.ExpectStatus
}

// urlPath is the path of a target URL; the whole string when it does
// not parse, so that two odd URLs still compare.
func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Path
}

// configDiffs compares every run with the first run of A and returns the
// first difference found for each field.
func configDiffs(a, b []*result.Result, opts Options) []*MismatchError {
	type run struct {
		label string
		cfg   result.RunConfig
	}
	var runs []run
	la, lb := opts.label("A", opts.LabelsA), opts.label("B", opts.LabelsB)
	for i, r := range a {
		runs = append(runs, run{la(i), r.Config})
	}
	for i, r := range b {
		runs = append(runs, run{lb(i), r.Config})
	}
	var diffs []*MismatchError
	for _, f := range configFields() {
		base := f.get(runs[0].cfg)
		for _, r := range runs[1:] {
			if v := f.get(r.cfg); v != base {
				diffs = append(diffs, &MismatchError{Field: f.name, RunA: runs[0].label, ValueA: base, RunB: r.label, ValueB: v})
				break
			}
		}
	}
	return diffs
}
