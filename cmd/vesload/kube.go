package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/deploy/kubespec"
	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/rendezvous"
	"github.com/vesload/vesload/profiles"
)

const kubeSynopsis = "vesload kube [hv] --shards N [--image IMAGE] [--password-secret NAME] [--results-claim PVC] [run or hv flags...] > job.yaml"

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
	resultsClaim   string
}

func kubeFlags(fs *pflag.FlagSet, k *kubeOptions) {
	fs.IntVar(&k.shards, "shards", 0, "how many generators (pods of the Indexed Job) share the run")
	fs.StringVar(&k.image, "image", "vesload:"+version, "container image holding the vesload binary; one named without a registry (as 'make image' builds it) is pulled IfNotPresent: load it into the cluster first (kind load, k3s ctr images import) or push it to a registry and name that")
	fs.StringVar(&k.namespace, "namespace", "", "namespace of the objects (default: kubectl's)")
	fs.StringVar(&k.passwordSecret, "password-secret", "", "Secret holding the basic auth password (the pods read it; it never enters the manifests)")
	fs.StringVar(&k.passwordKey, "password-secret-key", "password", "key of the password in --password-secret")
	fs.StringVar(&k.cpu, "cpu", "1", "CPU request of each shard")
	// Measured: a run at 3,000 requests/s (the largest rate the README
	// shows, ONAP's JMeter plan) with its metrics and live page peaked at
	// 28 MiB of RSS, 12 HV-VES producers of 8 KiB every 10 ms at 23 MiB;
	// 128 Mi leaves four times that for a long run's timeline.
	fs.StringVar(&k.memory, "memory", "128Mi", "memory request and limit of each pod (a shard at 3,000 requests/s peaked at 28 MiB)")
	fs.StringVar(&k.certSecret, "cert-secret", "", "Secret holding the client certificate, mounted into the run and the probe (kubectl create secret generic NAME --from-file=client.p12=STORE --from-file=client.pass=PASSFILE)")
	fs.StringVar(&k.certFormat, "cert-secret-format", "p12", "what --cert-secret holds: p12 (client.p12 and client.pass) or pem (tls.crt and tls.key, a kubernetes.io/tls Secret)")
	fs.StringVar(&k.resultsClaim, "results-claim", "", "PersistentVolumeClaim into which every pod also writes its result (beside its log), as vesload-<run id>-shard-I.json and vesload-<run id>-consume.json")
	fs.BoolVar(&k.probe, "probe", false, "measure each shard's link to the target (vesload probe) in an init container before the run")
	// Each shard serves its live page on the pod's fixed port: the flag
	// needs no address here.
	if f := fs.Lookup("dashboard"); f != nil {
		f.NoOptDefVal = kubeDashboard
		f.Usage = fmt.Sprintf("opt in to live pages: each shard serves its report page on port %d of its pod, without authentication, to whatever reaches the pod (the headless Service publishes the port); kubectl port-forward pod/POD %d to look at one", kube.DashboardPort, kube.DashboardPort)
	}
	fs.BoolVar(&k.podMonitor, "pod-monitor", false, "add a PodMonitor for the Prometheus Operator (its CRDs must be installed); the pods carry prometheus.io scrape annotations either way")
}

// kubeDashboard is where every shard serves its live page.
var kubeDashboard = kube.DashboardAddr()

func runKube(args []string, stdout, stderr io.Writer) int {
	return kubeCommand(args, time.Now(), stdout, stderr)
}

// kubeCommand is runKube at a given time, for tests. `vesload kube hv`,
// or an HV-VES profile, renders a run of `vesload hv` with its flags;
// anything else a run of `vesload run`.
func kubeCommand(args []string, now time.Time, stdout, stderr io.Writer) int {
	hvRun := len(args) > 0 && args[0] == "hv"
	if hvRun {
		args = args[1:]
	}
	var k kubeOptions
	var fs *pflag.FlagSet
	var build func() (*kube.Spec, error)
	if hvRun || hvProfile(args) {
		var o hvOptions
		fs = hvFlags(&o)
		build = func() (*kube.Spec, error) { return kubeHVSpec(&o, &k, fs.Changed, now) }
	} else {
		var o runOptions
		fs = runFlags(&o)
		build = func() (*kube.Spec, error) { return kubeSpec(&o, &k, fs.Changed, now) }
	}
	fs.Init("kube", pflag.ContinueOnError) // errors name this command
	kubeFlags(fs, &k)
	if code, done := parseCommand(fs, args, kubeSynopsis, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vesload kube: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	spec, err := build()
	if err == nil {
		spec.ResultsClaim = k.resultsClaim
		if err = spec.Validate(); err != nil {
			err = usagef("%v", err)
		}
	}
	if err == nil {
		err = kube.Render(stdout, *spec)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vesload kube: %v\n", err)
		return exitUsage
	}
	kubeSaid(spec, stderr)
	return exitOK
}

// kubeSaid tells, once the manifests are written, when the shards start
// and who reaches their live pages.
func kubeSaid(spec *kube.Spec, stderr io.Writer) {
	if spec.StartAt.IsZero() {
		fmt.Fprintf(stderr, "vesload kube: %d shards of run %s start together once all are running (within --ready-timeout %v): apply the manifests at any time\n",
			spec.Shards, spec.RunID, spec.ReadyTimeout)
	} else {
		fmt.Fprintf(stderr, "vesload kube: %d shards of run %s start at %s: apply the manifests before then\n",
			spec.Shards, spec.RunID, spec.StartAt.UTC().Format(time.RFC3339))
	}
	if spec.Dashboard {
		fmt.Fprintf(stderr, "vesload kube: --dashboard: every shard serves its live page on port %d without authentication, to whatever reaches its pod (the headless Service publishes the port): look at one through kubectl port-forward pod/POD %d\n",
			kube.DashboardPort, kube.DashboardPort)
	}
}

// specOptions are the kubespec.Options a REST and an HV-VES run share:
// the cluster's flags, the run's identity and start (without --start-at
// the shards agree on their start when they run), the Prometheus queries
// and how long the metrics outlive the run.
func (k *kubeOptions) specOptions(ro *runOptions, sh *shardOptions, runID string, plan *rendezvous.Plan, changed func(string) bool, now time.Time) kubespec.Options {
	ko := kubespec.Options{
		Shards: k.shards, Image: k.image, Namespace: k.namespace, CPU: k.cpu, Memory: k.memory,
		Probe: k.probe, PodMonitor: k.podMonitor,
		PasswordSecret: k.passwordSecret, PasswordKey: k.passwordKey, CertSecret: k.certSecret, CertFormat: k.certFormat,
		PromURL: ro.watch.promURL, PromQueries: ro.watch.promQueries,
		RunID: runID, Now: now, StartTolerance: sh.startTolerance, ReadyTimeout: sh.readyTimeout,
		MetricsLinger: 30 * time.Second, Version: version, ReadFile: readShipped, LookupEnv: os.LookupEnv,
	}
	if plan.Start != nil {
		ko.StartAt = plan.Start.At
	}
	if changed("metrics-linger") {
		ko.MetricsLinger = ro.watch.metricsLinger
	}
	return ko
}

// checkKubeStart refuses a relative --start-at: each pod would count it
// from its own launch.
func checkKubeStart(startAt string) error {
	if strings.HasPrefix(startAt, "+") {
		return usagef("--start-at %s: a relative start is counted from each shard's own launch, so the shards would not start together: give an RFC 3339 instant, or leave it out and the shards agree on their start when they run", startAt)
	}
	return nil
}

// kubeSpec resolves the scenario as a run would and describes the
// manifests. Every error is bad usage and names the flag.
func kubeSpec(o *runOptions, k *kubeOptions, changed func(string) bool, now time.Time) (*kube.Spec, error) {
	if err := kubespec.CheckFlags(changed, o.user, k.passwordSecret); err != nil {
		return nil, usage.Wrap(err)
	}
	if k.shards < 1 {
		return nil, usagef("--shards %d: want the number of generators, 1 or more", k.shards)
	}
	if err := checkKubeStart(o.shard.startAt); err != nil {
		return nil, err
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
		return nil, usagef("-profile %s: an HV-VES profile: render it with 'vesload kube hv' and hv's flags", o.profile)
	}
	ko := k.specOptions(o, &o.shard, o.shard.runID, sp, changed, now)
	ko.TargetMetrics = o.watch.targetMetrics
	if userLater {
		ko.User = o.user
	}
	s, err := kubespec.Build(sc, ko)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if s.Args, err = podArgs(o); err != nil {
		return nil, err
	}
	if err := kubeDashboardSpec(s, &o.dash, changed); err != nil {
		return nil, err
	}
	if s.Consume, err = kubeConsumer(&o.consume, func() (int, error) { return eventsPerRequest(sc) }, sc.Load, !ko.StartAt.IsZero(), changed); err != nil {
		return nil, err
	}
	return s, nil
}

// kubeDashboardSpec sets the Spec's live pages from --dashboard and --dashboard-linger.
func kubeDashboardSpec(s *kube.Spec, d *dashboardOptions, changed func(string) bool) error {
	var err error
	switch {
	case changed("dashboard"):
		err = kubespec.ServeDashboard(s, d.addr, d.linger)
	case changed("dashboard-linger"):
		err = errors.New("--dashboard-linger goes with --dashboard")
	}
	if err != nil {
		return usage.Wrap(err)
	}
	return nil
}

// podArgs are the run flags that reach the pods as flags, not through
// the profile (kubespec.RunFlags).
func podArgs(o *runOptions) ([]string, error) {
	f := kubespec.RunFlags{AllowErrors: o.allowErrors, NoPreflight: o.noPreflight, KeepGoing: o.keepGoing, Quiet: o.quiet, Verbose: o.verbose,
		RawBody: o.rawBody, AbortOnFail: o.abortOn, Outputs: o.outs}
	a, err := f.Args()
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return a, nil
}

// kubeHVSpec resolves an HV-VES run as `vesload hv` would and describes
// its manifests (kubespec.BuildHV): the producers split across the
// shards as hv --shard splits them, shard 0 following the collector's
// counters. Every error is bad usage and names the flag.
func kubeHVSpec(o *hvOptions, k *kubeOptions, changed func(string) bool, now time.Time) (*kube.Spec, error) {
	if err := kubespec.CheckFlags(changed, "", k.passwordSecret); err != nil {
		return nil, usage.Wrap(err)
	}
	if k.shards < 1 {
		return nil, usagef("--shards %d: want the number of generators, 1 or more", k.shards)
	}
	if err := checkKubeStart(o.shard.startAt); err != nil {
		return nil, err
	}
	cfg, gates, rv, err := hvConfig(o, changed)
	if err != nil {
		return nil, err
	}
	if cfg.Addr != "" {
		if err := cfg.Check(); err != nil {
			return nil, usage.Wrap(err)
		}
	}
	ro := &o.run
	h := kubespec.HV{Addr: cfg.Addr, Producers: cfg.Producers, Messages: cfg.Messages, Size: cfg.Size, Interval: cfg.Interval,
		Domain: o.domain, DialTimeout: o.dialTimeout, WriteTimeout: o.writeTimeout, Settle: o.settle,
		CACert: o.tls.CAFile, Insecure: o.tls.Insecure, TargetMetrics: ro.watch.targetMetrics, Thresholds: gates}
	if h.Labels, err = parseLabels(ro.profileLabels, ro.labels); err != nil {
		return nil, err
	}
	ko := k.specOptions(ro, &o.shard, cfg.RunID, rv, changed, now)
	s, err := kubespec.BuildHV(h, ko)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	more, err := podArgs(ro)
	if err != nil {
		return nil, err
	}
	s.Args = append(s.Args, more...)
	if err := kubeDashboardSpec(s, &ro.dash, changed); err != nil {
		return nil, err
	}
	one := func() (int, error) { return 1, nil }
	if s.Consume, err = kubeConsumer(&ro.consume, one, profiles.Shape{}, !ko.StartAt.IsZero(), changed); err != nil {
		return nil, err
	}
	return s, nil
}

// readShipped reads a file a sharded run ships in its ConfigMap (a body,
// data or CA file) within the bound of a body file, the largest of them:
// the ConfigMap's own 1 MiB is checked on what was read.
func readShipped(path string) ([]byte, error) {
	return inputfile.ReadFile(path, "file", inputfile.Body)
}
