package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/internal/redact"
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
	startMargin    time.Duration
	probe          bool
}

func kubeFlags(fs *pflag.FlagSet, k *kubeOptions) {
	fs.IntVar(&k.shards, "shards", 0, "how many generators (pods of the Indexed Job) share the run")
	fs.StringVar(&k.image, "image", "vesload:"+version, "container image holding the vesload binary")
	fs.StringVar(&k.namespace, "namespace", "", "namespace of the objects (default: kubectl's)")
	fs.StringVar(&k.passwordSecret, "password-secret", "", "Secret holding the basic auth password (the pods read it; it never enters the manifests)")
	fs.StringVar(&k.passwordKey, "password-secret-key", "password", "key of the password in --password-secret")
	fs.StringVar(&k.cpu, "cpu", "1", "CPU request of each shard")
	fs.StringVar(&k.memory, "memory", "256Mi", "memory request and limit of each shard")
	fs.DurationVar(&k.startMargin, "start-margin", 2*time.Minute, "start the run this long after rendering (time to apply and pull the image); --start-at overrides it")
	fs.BoolVar(&k.probe, "probe", false, "measure each shard's link to the target (vesload probe) in an init container before the run")
}

// kubeRefused are run flags that mean nothing in a pod, with what to do
// instead.
var kubeRefused = map[string]string{
	"output":         "each shard writes its result to its log; merge them with 'kubectl logs … | vesload merge -'",
	"junit":          "render reports from the merged result",
	"html":           "render reports from the merged result",
	"markdown":       "render reports from the merged result",
	"csv":            "render reports from the merged result",
	"jtl":            "not available on Kubernetes",
	"hdr-log":        "not available on Kubernetes",
	"checkpoint":     "each shard writes its result to its log",
	"shard":          "the pods take their shard from the Indexed Job",
	"password-file":  "the file is on this machine: give --password-secret NAME",
	"cert":           "a client key is a secret: not available on Kubernetes yet",
	"key":            "a client key is a secret: not available on Kubernetes yet",
	"target-pid":     "the target is not a process in the shard's pod: use --target-metrics",
	"target-process": "the target is not a process in the shard's pod: use --target-metrics",
	"metrics-addr":   "every shard serves its metrics on port 9464",
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
	fmt.Fprintf(stderr, "vesload kube: %d shards of run %s start at %s: apply the manifests before then\n",
		spec.Shards, spec.RunID, spec.StartAt.UTC().Format(time.RFC3339))
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
	files, err := podScenario(sc, k)
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
		runID = kubeRunID()
	}
	start := now.Add(k.startMargin).Truncate(time.Second).Add(time.Second)
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
		RenderedAt: now, StartAt: start, StartTolerance: o.shard.startTolerance,
		Span: sc.Load.TotalDuration(), Timeout: sc.Timeout, MetricsLinger: linger,
		CPU: k.cpu, Memory: k.memory,
		Probe: k.probe, Target: sc.Target.URL,
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
	if err := s.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return s, nil
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
		if tls.Cert != "" || tls.Key != "" {
			return nil, usagef("--cert/--key: a client key is a secret: not available on Kubernetes yet")
		}
		if tls.CACert != "" {
			if err := ship("--cacert", &tls.CACert, "ca.pem"); err != nil {
				return nil, err
			}
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
		return nil, usagef("--body-file/--cacert: %d KiB of files do not fit a ConfigMap (1 MiB)", size>>10)
	}
	return files, nil
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

// kubeRunID is a fresh run ID that is also a valid object name.
func kubeRunID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "run"
	}
	return hex.EncodeToString(b[:])
}
