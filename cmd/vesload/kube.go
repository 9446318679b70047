package main

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

const kubeSynopsis = "vesload kube --shards N [--image IMAGE] [--password-secret NAME] [run flags...] > job.yaml"

// kubeOptions are the flags of `vesload kube` beyond the run's own.
type kubeOptions struct {
	shards         int
	image          string
	namespace      string
	passwordSecret string
	passwordKey    string
	cpu, memory    string
	probe          bool
	podMonitor     bool
	certSecret     string
	certFormat     string
}

func kubeFlags(fs *pflag.FlagSet, k *kubeOptions) {
	fs.IntVar(&k.shards, "shards", 0, "how many generators (pods of the Indexed Job) share the run")
	fs.StringVar(&k.image, "image", "vesload:"+version, "container image holding the vesload binary")
	fs.StringVar(&k.namespace, "namespace", "", "namespace of the objects (default: kubectl's)")
	fs.StringVar(&k.passwordSecret, "password-secret", "", "Secret holding the basic auth password (the pods read it; it never enters the manifests)")
	fs.StringVar(&k.passwordKey, "password-secret-key", "password", "key of the password in --password-secret")
	fs.StringVar(&k.cpu, "cpu", "1", "CPU request of each shard")
	fs.StringVar(&k.memory, "memory", "256Mi", "memory request and limit of each shard")
	fs.StringVar(&k.certSecret, "cert-secret", "", "Secret holding the client certificate, mounted into the run and the probe (kubectl create secret generic NAME --from-file=client.p12=STORE --from-file=client.pass=PASSFILE)")
	fs.StringVar(&k.certFormat, "cert-secret-format", "p12", "what --cert-secret holds: p12 (client.p12 and client.pass) or pem (tls.crt and tls.key, a kubernetes.io/tls Secret)")
	fs.BoolVar(&k.probe, "probe", false, "measure each shard's link to the target (vesload probe) in an init container before the run")
	// Each shard serves its live page on the pod's fixed port: the flag
	// needs no address here.
	if f := fs.Lookup("dashboard"); f != nil {
		f.NoOptDefVal = kubeDashboard
		f.Usage = fmt.Sprintf("each shard serves its live report page on port %d of its pod, through the headless Service (kubectl port-forward pod/POD %d to look at one)", kube.DashboardPort, kube.DashboardPort)
	}
	fs.BoolVar(&k.podMonitor, "pod-monitor", false, "add a PodMonitor for the Prometheus Operator (its CRDs must be installed); the pods carry prometheus.io scrape annotations either way")
}

// kubeDashboard is where every shard serves its live page: all of the
// pod's addresses, the one port the Service exposes.
var kubeDashboard = fmt.Sprintf("0.0.0.0:%d", kube.DashboardPort)

// kubeRefused are run flags that mean nothing in a pod, with what to do
// instead.
var kubeRefused = map[string]string{
	"output":           "each shard writes its result to its log; merge them with 'kubectl logs … | vesload merge -'",
	"junit":            "render reports from the merged result",
	"html":             "render reports from the merged result",
	"markdown":         "render reports from the merged result",
	"csv":              "render reports from the merged result",
	"jtl":              "not available on Kubernetes",
	"hdr-log":          "not available on Kubernetes",
	"checkpoint":       "each shard writes its result to its log",
	"shard":            "the pods take their shard from the Indexed Job",
	"password-file":    "the file is on this machine: give --password-secret NAME",
	"cert":             "the file is on this machine and holds a key: give --cert-secret NAME",
	"key":              "the file is on this machine and holds a key: give --cert-secret NAME",
	"cert-pass-file":   "the file is on this machine: give --cert-secret NAME",
	"target-pid":       "the target is not a process in the shard's pod: use --target-metrics",
	"target-process":   "the target is not a process in the shard's pod: use --target-metrics",
	"metrics-addr":     "every shard serves its metrics on port 9464",
	"rendezvous":       "the shards agree on their start through shard 0 of the Job; give --start-at for a wall-clock start instead",
	"baseline":         "judge the merged result instead: vesload compare BASE.json --vs merged.json --gate EXPR",
	"gate":             "goes with --baseline: judge the merged result with vesload compare --gate",
	"alpha":            "goes with --baseline: judge the merged result with vesload compare --alpha",
	"gate-undecided":   "goes with --baseline: judge the merged result with vesload compare --gate-undecided",
	"dry-run":          "run 'vesload --dry-run' with the same flags here: the manifests are the dry run of a Kubernetes run",
	"dry-run-requests": "goes with --dry-run: run 'vesload --dry-run' with the same flags here",
	// --consume is rendered as one more pod (vesload consume); files on
	// this machine cannot follow it there.
	"kafka-user":                   "the password would have to reach the consumer's pod: not available on Kubernetes yet",
	"kafka-password-file":          "the file is on this machine: not available on Kubernetes yet",
	"kafka-cacert":                 "the file is on this machine: not available on Kubernetes yet (--kafka-insecure, or a broker without TLS)",
	"kafka-cert":                   "the file is on this machine and holds a key: not available on Kubernetes yet",
	"kafka-key":                    "the file is on this machine and holds a key: not available on Kubernetes yet",
	"target-metrics-user":          "the password would have to reach the pods: not available on Kubernetes yet (scrape an endpoint without auth, or use --prom-url)",
	"target-metrics-password-file": "the file is on this machine: not available on Kubernetes yet",
}

func runKube(args []string, stdout, stderr io.Writer) int {
	return kubeCommand(args, time.Now(), stdout, stderr)
}

// kubeCommand is runKube at a given time, for tests.
func kubeCommand(args []string, now time.Time, stdout, stderr io.Writer) int {
	var o runOptions
	var k kubeOptions
	fs := runFlags(&o)
	kubeFlags(fs, &k)
	if code, done := parseCommand(fs, args, kubeSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vesload kube: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	spec, err := kubeSpec(&o, &k, fs.Changed, now)
	if err == nil {
		err = kube.Render(stdout, *spec)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vesload kube: %v\n", err)
		return exitUsage
	}
	if spec.StartAt.IsZero() {
		fmt.Fprintf(stderr, "vesload kube: %d shards of run %s start together once all are running (within --ready-timeout %v): apply the manifests at any time\n",
			spec.Shards, spec.RunID, spec.ReadyTimeout)
	} else {
		fmt.Fprintf(stderr, "vesload kube: %d shards of run %s start at %s: apply the manifests before then\n",
			spec.Shards, spec.RunID, spec.StartAt.UTC().Format(time.RFC3339))
	}
	return exitOK
}

// kubeSpec resolves the scenario as a run would and describes the
// manifests. Every error is bad usage and names the flag.
func kubeSpec(o *runOptions, k *kubeOptions, changed func(string) bool, now time.Time) (*kube.Spec, error) {
	for _, name := range slices.Sorted(maps.Keys(kubeRefused)) {
		if changed(name) {
			return nil, usagef("--%s: %s", name, kubeRefused[name])
		}
	}
	if changed("user") && k.passwordSecret == "" {
		return nil, usagef("--user %s: the pods need the password from a Secret: give --password-secret NAME (kubectl create secret generic NAME --from-file=password=FILE)", o.user)
	}
	for flag, needs := range map[string]string{"password-secret-key": "password-secret", "cert-secret-format": "cert-secret"} {
		if changed(flag) && !changed(needs) {
			return nil, usagef("--%s goes with --%s", flag, needs)
		}
	}
	if changed("ready-timeout") && changed("start-at") {
		return nil, usagef("--ready-timeout: the shards wait for each other only without --start-at")
	}
	if k.shards < 1 {
		return nil, usagef("--shards %d: want the number of generators, 1 or more", k.shards)
	}
	if err := checkNumbers(o); err != nil {
		return nil, err
	}
	sp, err := o.shard.resolve(now, os.Getenv)
	if err != nil {
		return nil, err
	}
	// --user with --password-secret names a password the pods read from
	// the Secret, which the scenario cannot check here: it is set after.
	userLater := changed("user") && k.passwordSecret != ""
	sc, err := resolveScenario(o, func(name string) bool { return changed(name) && !(name == "user" && userLater) })
	if err != nil {
		return nil, err
	}
	if sc.Protocol == profiles.ProtocolHVVES {
		return nil, usagef("-profile %s: an HV-VES profile: not available on Kubernetes yet (run 'vesload hv --shard I/N --run-id … --start-at …' on each host)", o.profile)
	}
	if userLater {
		if sc.Target.Auth == nil {
			sc.Target.Auth = &profiles.Auth{}
		}
		sc.Target.Auth.User, sc.Target.Auth.PasswordFile, sc.Target.Auth.PasswordEnv = o.user, "", kube.PasswordEnv
	}
	if sc.Target.URL == "" {
		return nil, usagef("--url: the pods need the collector's URL as they reach it, e.g. https://ves:8443/eventListener/v7")
	}
	// The pods read the password from the Secret: a stand-in lets the
	// scenario compile here, and goes nowhere.
	lookup := func(name string) (string, bool) {
		if name == kube.PasswordEnv && k.passwordSecret != "" {
			return "stand-in", true
		}
		return os.LookupEnv(name)
	}
	if _, err := scenario.Compile(sc, scenario.Options{Version: version, NoPreflight: true, RunID: "kube", LookupEnv: lookup}); err != nil {
		return nil, usageError{err}
	}
	if err := podSamplers(sc, &o.watch); err != nil {
		return nil, err
	}
	// A threshold given by the profile and again by a flag is one gate.
	sc.Thresholds = uniq(sc.Thresholds)
	files, err := podScenario(sc, k)
	if err != nil {
		return nil, err
	}
	extra, err := podArgs(o, changed)
	if err != nil {
		return nil, err
	}
	sc.Source = ""
	text, err := sc.Marshal()
	if err != nil {
		return nil, err
	}
	runID := o.shard.runID
	if runID == "" {
		runID = ves.NewRunID() // 64 bits, as a run chooses; hex is a valid object name
	}
	// Without --start-at the shards agree on their start when they run.
	var start time.Time
	if sp.start != nil {
		start = sp.start.At
	}
	linger := 30 * time.Second
	if changed("metrics-linger") {
		linger = o.watch.metricsLinger
	}
	s := &kube.Spec{
		RunID: runID, Namespace: k.namespace, Image: k.image, Shards: k.shards,
		Profile: text, Files: files,
		RenderedAt: now, StartAt: start, StartTolerance: o.shard.startTolerance, ReadyTimeout: o.shard.readyTimeout,
		Args: extra, PodMonitor: k.podMonitor,
		Span: sc.Load.TotalDuration(), Timeout: sc.Timeout, MetricsLinger: linger,
		CPU: k.cpu, Memory: k.memory,
		Probe: k.probe, Target: sc.Target.URL,
		CertSecret: k.certSecret, CertPEM: k.certFormat == "pem",
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
		s.PasswordSecret, s.PasswordKey = k.passwordSecret, k.passwordKey
	}
	if err := podDashboard(s, &o.dash, changed); err != nil {
		return nil, err
	}
	if s.Consume, err = kubeConsumer(o, sc, !start.IsZero(), changed); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return s, nil
}

// podDashboard has each shard serve its live page on the pod's fixed
// port when --dashboard asks for it.
func podDashboard(s *kube.Spec, d *dashboardOptions, changed func(string) bool) error {
	if !changed("dashboard") {
		if changed("dashboard-linger") {
			return usagef("--dashboard-linger goes with --dashboard")
		}
		return nil
	}
	if d.addr != kubeDashboard && d.addr != fmt.Sprintf(":%d", kube.DashboardPort) {
		return usagef("--dashboard %s: each shard serves its page on %s in its pod: give --dashboard alone", d.addr, kubeDashboard)
	}
	if d.linger < 0 {
		return usagef("--dashboard-linger %v: want 0 or a positive duration", d.linger)
	}
	s.Dashboard, s.DashboardLinger = true, d.linger
	return nil
}

// podScenario rewrites the scenario for the pods: the password comes
// from the Secret through $VESLOAD_PASSWORD, and files it names on this
// machine (body templates, a CA bundle) travel in the ConfigMap. It
// refuses what would put a secret into the manifests.
func podScenario(p *profiles.Profile, k *kubeOptions) (map[string][]byte, error) {
	t := &p.Target
	if u, err := url.Parse(t.URL); err == nil && u.User != nil {
		return nil, usagef("--url: credentials in the URL would be written into the manifests: give --user and --password-secret")
	}
	for name := range t.Headers {
		if redact.SecretHeader(name) {
			return nil, usagef("--header %s: its value would be written into the ConfigMap: not available on Kubernetes", name)
		}
	}
	if err := podAuth(t, k); err != nil {
		return nil, err
	}
	if s := p.Samplers; s.TargetPID != 0 || s.TargetProcess != "" {
		return nil, usagef("-profile: samplers.target_pid and target_process name a process on this machine: use target_metrics on Kubernetes")
	}
	if err := podCert(t, k); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	ship := func(flag string, path *string, key string) error {
		b, err := os.ReadFile(*path)
		if err != nil {
			return usagef("%s: %v", flag, err)
		}
		files[key] = b
		*path = kube.ConfigDir + "/" + key
		return nil
	}
	if tls := t.TLS; tls != nil {
		if (tls.Cert != "" || tls.Key != "" || tls.CertPassFile != "") && k.certSecret == "" {
			return nil, usagef("--cert/--key: a client key is a secret: give --cert-secret NAME, whose files the pods mount")
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
	if size > 900<<10 {
		return nil, usagef("--body-file/--data-file/--cacert: %d KiB of files do not fit a ConfigMap (1 MiB)", size>>10)
	}
	return files, nil
}

// podCert points the scenario's client certificate at the files of the
// Secret the pods mount (deploy/kube's CertDir), replacing any paths on
// this machine.
func podCert(t *profiles.Target, k *kubeOptions) error {
	if k.certSecret == "" {
		return nil
	}
	if k.certFormat != "p12" && k.certFormat != "pem" {
		return usagef("--cert-secret-format %s: want p12 or pem", k.certFormat)
	}
	if t.TLS == nil {
		t.TLS = &profiles.TLS{}
	}
	s := kube.Spec{CertSecret: k.certSecret, CertPEM: k.certFormat == "pem"}
	t.TLS.Cert, t.TLS.Key, t.TLS.CertPassFile = s.CertFiles()
	return nil
}

// podAuth points the scenario's password at $VESLOAD_PASSWORD, which the
// pods fill from the Secret.
func podAuth(t *profiles.Target, k *kubeOptions) error {
	a := t.Auth
	if a == nil || (a.User == "" && a.PasswordFile == "" && a.PasswordEnv == "") {
		if k.passwordSecret != "" {
			return usagef("--password-secret needs --user: the Secret holds the password of that user")
		}
		return nil
	}
	if k.passwordSecret == "" {
		return usagef("--user %s: the pods need the password from a Secret: give --password-secret NAME (kubectl create secret generic NAME --from-file=password=FILE)", a.User)
	}
	a.PasswordFile, a.PasswordEnv = "", kube.PasswordEnv
	return nil
}

// podSamplers writes the samplers the flags name into the profile the
// pods read (a run takes them from the flags, which the pods do not get).
func podSamplers(p *profiles.Profile, w *watchOptions) error {
	s := &p.Samplers
	if w.targetMetrics != "" {
		s.TargetMetrics = w.targetMetrics
	}
	for _, u := range []string{s.TargetMetrics, w.promURL} {
		if pu, err := url.Parse(u); err == nil && pu.User != nil {
			return usagef("--target-metrics/--prom-url: credentials in the URL would be written into the manifests")
		}
	}
	if w.promURL != "" || len(w.promQueries) > 0 {
		if w.promURL == "" {
			return usagef("--prom-query needs --prom-url")
		}
		s.PromURL, s.PromQueries = w.promURL, map[string]string{}
		for _, q := range w.promQueries {
			name, expr, ok := strings.Cut(q, "=")
			if !ok || name == "" || expr == "" {
				return usagef("--prom-query %q: want NAME=PROMQL", q)
			}
			s.PromQueries[name] = expr
		}
	}
	return nil
}

// podArgs are the run flags that reach the pods as flags, not through
// the profile: what decides the exit code, and the InfluxDB output.
func podArgs(o *runOptions, changed func(string) bool) ([]string, error) {
	var a []string
	if o.allowErrors {
		a = append(a, "--allow-errors")
	}
	if o.noPreflight {
		a = append(a, "--no-preflight")
	}
	if o.quiet {
		a = append(a, "--quiet")
	}
	if o.verbose {
		a = append(a, "--verbose")
	}
	if o.rawBody {
		a = append(a, "--raw-body")
	}
	for _, g := range o.abortOn {
		a = append(a, "--abort-on-fail", g)
	}
	if in := o.influx; in.url != "" {
		if u, err := url.Parse(in.url); err != nil || u.User != nil || u.Query().Has("p") {
			return nil, usagef("--influx-url: credentials in the URL would be written into the manifests: not available on Kubernetes yet")
		}
		a = append(a, "--influx-url", in.url, "--influx-application", in.application, "--influx-measurement", in.measurement)
		if changed("influx-percentiles") {
			p := make([]string, len(in.percentiles))
			for i, v := range in.percentiles {
				p[i] = strconv.FormatFloat(v, 'g', -1, 64)
			}
			a = append(a, "--influx-percentiles", strings.Join(p, ","))
		}
	} else {
		for _, name := range []string{"influx-application", "influx-measurement", "influx-percentiles"} {
			if changed(name) {
				return nil, usagef("--%s goes with --influx-url", name)
			}
		}
	}
	return a, nil
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
