package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// Profile is a whole scenario. It is plain data with explicit units so the
// command line can map it onto the engine's configuration field by field
// and let flags override any of it; zero values mean "not set here, use the
// command line's default".
type Profile struct {
	// Name identifies the scenario in results (config.profile).
	Name string `yaml:"name,omitempty"`
	// Description is one line shown by `vesload profiles`.
	Description string `yaml:"description,omitempty"`
	// Protocol is the collector's protocol: "ves" (the REST event
	// listener, the default) or "hv-ves" (WTP frames over TCP, run by
	// `vesload hv`). `vesload -profile` hands an hv-ves profile to the HV-VES
	// producers, so a seed's configuration runs by its name alone.
	Protocol string `yaml:"protocol,omitempty"`
	// Vars holds the values of ${NAME} placeholders. A variable declared
	// with an empty value must be given with --set NAME=VALUE before a run.
	Vars map[string]string `yaml:"vars,omitempty"`
	// Target says where requests go and how to authenticate.
	Target Target `yaml:"target,omitempty"`
	// Pool is the maximum number of connections to the target.
	Pool int `yaml:"pool,omitempty"`
	// PoolWait is how long a due request may wait for a free connection
	// before it is counted as pool_exhausted.
	PoolWait time.Duration `yaml:"pool_wait,omitempty"`
	// Timeout bounds each request, and the drain at the end of a run.
	Timeout time.Duration `yaml:"timeout,omitempty"`
	// KeepAlive reuses connections when true; nil means the default (on).
	KeepAlive *bool `yaml:"keepalive,omitempty"`
	// Load is the load shape. It may be empty when the command line gives
	// the rate and duration.
	Load Shape `yaml:"load,omitempty"`
	// Requests is the weighted request mix; empty means one fault event.
	Requests []Request `yaml:"requests,omitempty"`
	// Samplers says where to read the target's resource usage.
	Samplers Samplers `yaml:"samplers,omitempty"`
	// Thresholds are pass/fail expressions such as "p99<500ms", kept as
	// written: the report package parses and evaluates them.
	Thresholds []string `yaml:"thresholds,omitempty"`
	// Labels name what the runs of this profile test (build: 1.9.1),
	// recorded in each result; --label adds to them.
	Labels map[string]string `yaml:"labels,omitempty"`
	// Data binds template variables from the rows of a CSV file.
	Data *Data `yaml:"data,omitempty"`

	// Source is where the profile was read from (a file path or
	// "builtin:NAME"); it is not part of the YAML.
	Source string `yaml:"-"`

	// fileVars are the variables used by the body_file templates, noted
	// by ScanBodyFiles; nil until then.
	fileVars []string
	// dataVars are the columns of the data file, bound per request by the
	// body templates (BindDataColumns); nil without data.
	dataVars []string
}

// Label names the profile in messages by where it came from: the file a
// user gave, a built-in profile, or, for a scenario made of flags alone,
// the command line. A message never shows an empty name.
func (p *Profile) Label() string {
	switch {
	case strings.HasPrefix(p.Source, "builtin:"):
		return "built-in profile " + strings.TrimPrefix(p.Source, "builtin:")
	case p.Source != "":
		return "profile " + p.Source
	case p.Name != "":
		return "profile " + p.Name
	}
	return "the command line"
}

// Target is the system under test.
type Target struct {
	// URL is the collector endpoint, e.g.
	// https://collector:8443/eventListener/v7. Empty means the built-in
	// emulator. It may hold ${NAME} placeholders.
	URL string `yaml:"url,omitempty"`
	// Method is the HTTP method; POST when empty.
	Method string `yaml:"method,omitempty"`
	// Headers are sent with every request (Content-Type is set by the
	// engine unless given here).
	Headers map[string]string `yaml:"headers,omitempty"`
	// Auth enables HTTP basic authentication.
	Auth *Auth `yaml:"auth,omitempty"`
	// TLS configures certificate checks and client certificates.
	TLS *TLS `yaml:"tls,omitempty"`
	// ExpectStatus lists the statuses that count as success, codes such
	// as 202 or classes such as 2xx; empty means 2xx. Any other status is
	// an error of its own class.
	ExpectStatus []string `yaml:"expect_status,omitempty"`
}

// Auth is HTTP basic authentication. The password is never part of a
// profile: it is read from a file or an environment variable at run time,
// so profiles can be committed and shared.
type Auth struct {
	User         string `yaml:"user,omitempty"`
	PasswordFile string `yaml:"password_file,omitempty"`
	PasswordEnv  string `yaml:"password_env,omitempty"`
}

// TLS configures HTTPS. Verification is on unless Insecure is set.
type TLS struct {
	// CACert is a PEM file of the certificate authorities to trust.
	CACert string `yaml:"cacert,omitempty"`
	// Cert and Key are the PEM client certificate and its key, for
	// certificate authentication. Cert may instead be a PKCS#12 store
	// (.p12, .pfx) whose password is in CertPassFile, as ONAP ships them.
	Cert         string `yaml:"cert,omitempty"`
	Key          string `yaml:"key,omitempty"`
	CertPassFile string `yaml:"cert_pass_file,omitempty"`
	// Insecure skips server certificate verification.
	Insecure bool `yaml:"insecure,omitempty"`
}

// Samplers tells the engine where to sample the target's CPU and memory
// during a run; all are optional.
type Samplers struct {
	// TargetPID is a local process id to sample (pidstat-style).
	TargetPID int `yaml:"target_pid,omitempty"`
	// TargetProcess is a local process name to find and sample.
	TargetProcess string `yaml:"target_process,omitempty"`
	// TargetMetrics is a Prometheus text endpoint of the target, such as
	// the collector's /actuator/prometheus.
	TargetMetrics string `yaml:"target_metrics,omitempty"`
	// PromURL is a Prometheus server to query during the run.
	PromURL string `yaml:"prom_url,omitempty"`
	// PromQueries maps a series name in the result to a PromQL query.
	PromQueries map[string]string `yaml:"prom_queries,omitempty"`
}

// KeepAliveOn reports whether connections are reused, applying the default.
func (p *Profile) KeepAliveOn() bool {
	return p.KeepAlive == nil || *p.KeepAlive
}

// Marshal renders the profile as YAML that Parse reads back to an equal
// profile; multi-line bodies are written as literal blocks, durations in
// their shortest form (10m rather than 10m0s) and rates without a needless
// decimal point (50, not 50.0).
func (p *Profile) Marshal() ([]byte, error) {
	out, err := p.marshal(true)
	if err != nil {
		return nil, err
	}
	// A literal block cannot hold every text (leading blank lines or
	// indentation are lost): fall back to quoted strings when the block
	// form would not read back the same.
	if !p.readsBack(out) {
		return p.marshal(false)
	}
	return out, nil
}

// readsBack reports whether out decodes to the same profile.
func (p *Profile) readsBack(out []byte) bool {
	var q Profile
	out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")) // as Parse reads it
	if err := yaml.Unmarshal(out, &q); err != nil {
		return false
	}
	a, b := *p, q
	a.normalize()
	b.normalize()
	a.Source, b.Source = "", ""
	a.fileVars, b.fileVars = nil, nil
	a.dataVars, b.dataVars = nil, nil
	return reflect.DeepEqual(a, b)
}

func (p *Profile) marshal(literal bool) ([]byte, error) {
	opts := []yaml.EncodeOption{yaml.UseLiteralStyleIfMultiline(literal)}
	if !literal {
		opts = append(opts, yaml.CustomMarshaler[string](func(s string) ([]byte, error) {
			return []byte(strconv.Quote(s)), nil
		}))
	}
	out, err := yaml.MarshalWithOptions(p, append(opts,
		yaml.IndentSequence(true),
		yaml.CustomMarshaler[time.Duration](func(d time.Duration) ([]byte, error) {
			return []byte(FormatDuration(d)), nil
		}),
		yaml.CustomMarshaler[float64](func(f float64) ([]byte, error) {
			return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
		}),
	)...)
	if err != nil {
		return nil, fmt.Errorf("marshal profile %s: %w", p.Name, err)
	}
	return out, nil
}

// EventsPerRequest is the number of events each request of the mix
// carries (1 for single events), which a delivery check multiplies the
// requests by; the requests of a mix must agree, or the events of a
// request number could not be told from its number alone.
func (p *Profile) EventsPerRequest() (int, error) {
	batch := 0
	for _, r := range p.Requests {
		b := max(r.Batch, 1)
		if batch != 0 && b != batch {
			return 0, errors.New("the requests of a mix must carry the same number of events")
		}
		batch = b
	}
	return max(batch, 1), nil
}
