package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/deploy/kubespec"
	"github.com/vesload/vesload/profiles"
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

// kubeDashboard is where every shard serves its live page.
var kubeDashboard = kube.DashboardAddr()

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
	if err := kubespec.CheckFlags(changed, o.user, k.passwordSecret); err != nil {
		return nil, usageError{err}
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
	ko := kubespec.Options{
		Shards: k.shards, Image: k.image, Namespace: k.namespace, CPU: k.cpu, Memory: k.memory,
		Probe: k.probe, PodMonitor: k.podMonitor,
		PasswordSecret: k.passwordSecret, PasswordKey: k.passwordKey, CertSecret: k.certSecret, CertFormat: k.certFormat,
		TargetMetrics: o.watch.targetMetrics, PromURL: o.watch.promURL, PromQueries: o.watch.promQueries,
		RunID: o.shard.runID, Now: now, StartTolerance: o.shard.startTolerance, ReadyTimeout: o.shard.readyTimeout,
		MetricsLinger: 30 * time.Second, Version: version, ReadFile: os.ReadFile, LookupEnv: os.LookupEnv,
	}
	if userLater {
		ko.User = o.user
	}
	// Without --start-at the shards agree on their start when they run.
	if sp.Start != nil {
		ko.StartAt = sp.Start.At
	}
	if changed("metrics-linger") {
		ko.MetricsLinger = o.watch.metricsLinger
	}
	s, err := kubespec.Build(sc, ko)
	if err != nil {
		return nil, usageError{err}
	}
	if s.Args, err = podArgs(o, changed); err != nil {
		return nil, err
	}
	switch {
	case changed("dashboard"):
		err = kubespec.ServeDashboard(s, o.dash.addr, o.dash.linger)
	case changed("dashboard-linger"):
		err = errors.New("--dashboard-linger goes with --dashboard")
	}
	if err != nil {
		return nil, usageError{err}
	}
	if s.Consume, err = kubeConsumer(o, sc, !ko.StartAt.IsZero(), changed); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return s, nil
}

// podArgs are the run flags that reach the pods as flags, not through
// the profile (kubespec.RunFlags).
func podArgs(o *runOptions, changed func(string) bool) ([]string, error) {
	in := o.influx
	f := kubespec.RunFlags{AllowErrors: o.allowErrors, NoPreflight: o.noPreflight, KeepGoing: o.keepGoing, Quiet: o.quiet, Verbose: o.verbose,
		RawBody: o.rawBody, AbortOnFail: o.abortOn,
		InfluxURL: in.url, InfluxApplication: in.application, InfluxMeasurement: in.measurement}
	if changed("influx-percentiles") {
		f.InfluxPercentiles = in.percentiles
	}
	for _, name := range []string{"influx-application", "influx-measurement", "influx-percentiles"} {
		if in.url == "" && changed(name) {
			return nil, usagef("--%s goes with --influx-url", name)
		}
	}
	a, err := f.Args()
	if err != nil {
		return nil, usageError{err}
	}
	return a, nil
}
