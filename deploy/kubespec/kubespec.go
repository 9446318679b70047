package kubespec

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// MaxFiles bounds the files shipped in the ConfigMap, whose whole size
// Kubernetes limits to 1 MiB (the profile and the object need the rest).
const MaxFiles = 900 << 10

// Options are what a run on Kubernetes adds to its scenario.
type Options struct {
	// Shards, Image, Namespace, CPU, Memory, Probe and PodMonitor go to
	// the Spec as they are.
	Shards            int
	Image, Namespace  string
	CPU, Memory       string
	Probe, PodMonitor bool
	// PasswordSecret names the Secret holding the basic auth password
	// under PasswordKey; User, when set, is the user of that password
	// (given beside the scenario, which then names no password).
	PasswordSecret, PasswordKey, User string
	// CertSecret names the Secret holding the client certificate;
	// CertFormat says what it holds: "p12" (client.p12, client.pass) or
	// "pem" (tls.crt, tls.key).
	CertSecret, CertFormat string
	// TargetMetrics, PromURL and PromQueries (each NAME=PROMQL) are
	// samplers given beside the profile; they are written into it, since
	// the pods get no flags of the kind.
	TargetMetrics, PromURL string
	PromQueries            []string
	// RunID names the objects; empty picks a new one, as a run does.
	RunID string
	// Now is when the manifests are rendered. StartAt is the shards'
	// wall-clock start; zero lets them agree on it when they run, within
	// ReadyTimeout.
	Now, StartAt                 time.Time
	StartTolerance, ReadyTimeout time.Duration
	// MetricsLinger keeps each shard's metrics served after its run.
	MetricsLinger time.Duration
	// Version names the generator when the scenario is compiled as the
	// pods will compile it.
	Version string
	// ReadFile reads the files the scenario names on this machine (body
	// templates, a data file, a CA bundle) for the ConfigMap; LookupEnv
	// reads the variables that hold passwords. Nil fails the first and
	// finds no variable.
	ReadFile  func(path string) ([]byte, error)
	LookupEnv func(name string) (string, bool)
}

// Build checks that sc, a REST scenario, can run in pods, rewrites it for them (sc is
// changed) and returns the Spec of its manifests. The caller adds the
// Spec's Args, Dashboard and Consume, then calls Validate.
func Build(sc *profiles.Profile, o Options) (*kube.Spec, error) {
	if o.User != "" && o.PasswordSecret != "" {
		if sc.Target.Auth == nil {
			sc.Target.Auth = &profiles.Auth{}
		}
		sc.Target.Auth.User, sc.Target.Auth.PasswordFile, sc.Target.Auth.PasswordEnv = o.User, "", kube.PasswordEnv
	}
	if sc.Target.URL == "" {
		return nil, errors.New("--url: the pods need the collector's URL as they reach it, e.g. https://ves:8443/eventListener/v7")
	}
	if err := compiles(sc, &o); err != nil {
		return nil, err
	}
	if err := samplers(&sc.Samplers, &o); err != nil {
		return nil, err
	}
	// A threshold given by the profile and again by a flag is one gate.
	sc.Thresholds = uniq(sc.Thresholds)
	files, err := podScenario(sc, &o)
	if err != nil {
		return nil, err
	}
	sc.Source = ""
	text, err := sc.Marshal()
	if err != nil {
		return nil, err
	}
	runID := o.RunID
	if runID == "" {
		runID = ves.NewRunID() // 64 bits, as a run chooses; hex is a valid object name
	}
	s := &kube.Spec{
		RunID: runID, Namespace: o.Namespace, Image: o.Image, Shards: o.Shards,
		Profile: text, Files: files, PullPolicy: PullPolicy(o.Image),
		RenderedAt: o.Now, StartAt: o.StartAt, StartTolerance: o.StartTolerance, ReadyTimeout: o.ReadyTimeout,
		PodMonitor: o.PodMonitor,
		Span:       sc.Load.TotalDuration(), Timeout: sc.Timeout, MetricsLinger: o.MetricsLinger,
		CPU: o.CPU, Memory: o.Memory,
		Probe: o.Probe, Target: sc.Target.URL,
		CertSecret: o.CertSecret, CertPEM: o.CertFormat == "pem",
	}
	if t := sc.Target.TLS; t != nil {
		if t.CACert != "" {
			s.ProbeArgs = append(s.ProbeArgs, "--cacert", t.CACert)
		}
		if t.Insecure {
			s.ProbeArgs = append(s.ProbeArgs, "--insecure")
		}
	}
	if sc.Target.Auth != nil && sc.Target.Auth.PasswordEnv != "" {
		s.PasswordSecret, s.PasswordKey = o.PasswordSecret, o.PasswordKey
	}
	return s, nil
}

// compiles compiles the scenario as the pods will, with a stand-in for
// the password they read from the Secret: it goes nowhere.
func compiles(sc *profiles.Profile, o *Options) error {
	lookup := func(name string) (string, bool) {
		if name == kube.PasswordEnv && o.PasswordSecret != "" {
			return "stand-in", true
		}
		if o.LookupEnv == nil {
			return "", false
		}
		return o.LookupEnv(name)
	}
	_, err := scenario.Compile(sc, scenario.Options{Version: o.Version, NoPreflight: true, RunID: "kube", LookupEnv: lookup})
	return err
}

// samplers writes the samplers given beside the profile into it.
func samplers(s *profiles.Samplers, o *Options) error {
	if o.TargetMetrics != "" {
		s.TargetMetrics = o.TargetMetrics
	}
	for _, u := range []string{s.TargetMetrics, o.PromURL} {
		if pu, err := url.Parse(u); err == nil && pu.User != nil {
			return errors.New("--target-metrics/--prom-url: credentials in the URL would be written into the manifests")
		}
	}
	if o.PromURL == "" && len(o.PromQueries) == 0 {
		return nil
	}
	if o.PromURL == "" {
		return errors.New("--prom-query needs --prom-url")
	}
	s.PromURL, s.PromQueries = o.PromURL, map[string]string{}
	for _, q := range o.PromQueries {
		name, expr, ok := strings.Cut(q, "=")
		if !ok || name == "" || expr == "" {
			return fmt.Errorf("--prom-query %q: want NAME=PROMQL", q)
		}
		s.PromQueries[name] = expr
	}
	return nil
}

// podScenario rewrites the scenario for the pods: the password comes
// from the Secret through $VESLOAD_PASSWORD, and the files it names on
// this machine travel in the ConfigMap. It refuses what would put a
// secret into the manifests.
func podScenario(p *profiles.Profile, o *Options) (map[string][]byte, error) {
	t := &p.Target
	if u, err := url.Parse(t.URL); err == nil && u.User != nil {
		return nil, errors.New("--url: credentials in the URL would be written into the manifests: give --user and --password-secret")
	}
	for name := range t.Headers {
		if redact.SecretHeader(name) {
			return nil, fmt.Errorf("--header %s: its value would be written into the ConfigMap: not available on Kubernetes", name)
		}
	}
	if err := podAuth(t, o); err != nil {
		return nil, err
	}
	if s := p.Samplers; s.TargetPID != 0 || s.TargetProcess != "" {
		return nil, errors.New("-profile: samplers.target_pid and target_process name a process on this machine: use target_metrics on Kubernetes")
	}
	if err := podCert(t, o); err != nil {
		return nil, err
	}
	return shipFiles(p, o)
}

// shipFiles reads the files the scenario names into ConfigMap entries
// and points the scenario at them under kube.ConfigDir.
func shipFiles(p *profiles.Profile, o *Options) (map[string][]byte, error) {
	files := map[string][]byte{}
	ship := func(flag string, path *string, key string) error {
		if o.ReadFile == nil {
			return fmt.Errorf("%s: no file reader to ship %s", flag, *path)
		}
		b, err := o.ReadFile(*path)
		if err != nil {
			return fmt.Errorf("%s: %v", flag, err)
		}
		files[key] = b
		*path = kube.ConfigDir + "/" + key
		return nil
	}
	if tls := p.Target.TLS; tls != nil {
		if (tls.Cert != "" || tls.Key != "" || tls.CertPassFile != "") && o.CertSecret == "" {
			return nil, errors.New("--cert/--key: a client key is a secret: give --cert-secret NAME, whose files the pods mount")
		}
		if tls.CACert != "" {
			if err := ship("--cacert", &tls.CACert, "ca.pem"); err != nil {
				return nil, err
			}
		}
	}
	if d := p.Data; d != nil && d.File != "" {
		if err := ship("--data-file", &d.File, "data"+filepath.Ext(d.File)); err != nil {
			return nil, err
		}
	}
	for i := range p.Requests {
		r := &p.Requests[i]
		if r.BodyFile != "" {
			if err := ship("--body-file", &r.BodyFile, fmt.Sprintf("body-%d%s", i+1, filepath.Ext(r.BodyFile))); err != nil {
				return nil, err
			}
		}
	}
	size := 0
	for _, b := range files {
		size += len(b)
	}
	if size > MaxFiles {
		return nil, fmt.Errorf("--body-file/--data-file/--cacert: %d KiB of files do not fit a ConfigMap (1 MiB)", size>>10)
	}
	return files, nil
}

// podCert points the scenario's client certificate at the files of the
// Secret the pods mount (kube.CertDir), replacing any paths on this
// machine.
func podCert(t *profiles.Target, o *Options) error {
	if o.CertSecret == "" {
		return nil
	}
	if o.CertFormat != "p12" && o.CertFormat != "pem" {
		return fmt.Errorf("--cert-secret-format %s: want p12 or pem", o.CertFormat)
	}
	if t.TLS == nil {
		t.TLS = &profiles.TLS{}
	}
	s := kube.Spec{CertSecret: o.CertSecret, CertPEM: o.CertFormat == "pem"}
	t.TLS.Cert, t.TLS.Key, t.TLS.CertPassFile = s.CertFiles()
	return nil
}

// podAuth points the scenario's password at $VESLOAD_PASSWORD, which the
// pods fill from the Secret.
func podAuth(t *profiles.Target, o *Options) error {
	a := t.Auth
	if a == nil || (a.User == "" && a.PasswordFile == "" && a.PasswordEnv == "") {
		if o.PasswordSecret != "" {
			return errors.New("--password-secret needs --user: the Secret holds the password of that user")
		}
		return nil
	}
	if o.PasswordSecret == "" {
		return needPasswordSecret(a.User)
	}
	a.PasswordFile, a.PasswordEnv = "", kube.PasswordEnv
	return nil
}

// needPasswordSecret refuses a user without the Secret that holds the
// password, given by a flag (CheckFlags) or by the profile (podAuth).
func needPasswordSecret(user string) error {
	return fmt.Errorf("--user %s: the pods need the password from a Secret: give --password-secret NAME (kubectl create secret generic NAME --from-file=password=FILE)", user)
}

// uniq keeps the first of equal strings, in order.
func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// Consumer is the delivery follower a run asks for (run --consume), as
// its pod gets it.
type Consumer struct {
	// URL is the output topic; Grace, Group, Mechanism (empty: the
	// default) and Insecure are vesload consume's flags.
	URL       string
	Grace     time.Duration
	Group     string
	Mechanism string
	Insecure  bool
	// Batch is how many events each request carries.
	Batch int
}

// ConsumerPod is the consumer pod of a run on Kubernetes (vesload consume
// beside the shards). With a start the shards agree on at run time, the
// consumer is a member of the agreement and learns the run's plan there;
// with a wall-clock start, a constant rate gives it the due times for
// end to end, other shapes are followed without them.
func ConsumerPod(c Consumer, load profiles.Shape, wallClock bool) *kube.Consumer {
	k := &kube.Consumer{URL: c.URL, Args: []string{"--grace", c.Grace.String()}}
	// A start agreed at run time comes with the run's plan, which the
	// consumer then learns from shard 0; a wall-clock one is told here.
	if wallClock {
		k.Args = append(k.Args, "--batch", strconv.Itoa(c.Batch))
	}
	if wallClock && load.RPS > 0 && len(load.Stages) == 0 && load.Ramp == nil && load.Closed == nil {
		k.Args = append(k.Args, "--rps", strconv.FormatFloat(load.RPS, 'g', -1, 64))
	}
	if c.Group != "" {
		k.Args = append(k.Args, "--group", c.Group)
	}
	if c.Mechanism != "" {
		k.Args = append(k.Args, "--kafka-mechanism", c.Mechanism)
	}
	if c.Insecure {
		k.Args = append(k.Args, "--kafka-insecure")
	}
	return k
}
