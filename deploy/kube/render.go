package kube

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
)

// Where the pods find the scenario: the ConfigMap is mounted here and
// the profile is ProfileKey in it.
const (
	ConfigDir  = "/etc/vesload"
	ProfileKey = "profile.yaml"
	// PasswordEnv is the variable the pods read the basic auth password
	// from; it is filled from the Secret the Spec names.
	PasswordEnv = "VESLOAD_PASSWORD"
	// CertDir is where the Secret of the client certificate is mounted
	// (a directory of its own: the ConfigMap's is read-only).
	CertDir = "/etc/vesload-tls"
	// MetricsPort is where each shard serves its live vesload_* metrics.
	MetricsPort = 9464
	// RendezvousPort is where shard 0 gathers the shards' ready signals
	// and hands out the start instant (vesload --rendezvous).
	RendezvousPort = 9465
	// DashboardPort is where each shard serves its live report page
	// (vesload --dashboard) when the Spec asks for it, on every address
	// of the pod: kubectl port-forward and the headless Service reach it.
	DashboardPort = 5665
	// TempDir is where every pod's temporary folder ($TMPDIR) is: an
	// emptyDir, the one writable place beside a read-only root
	// filesystem, where a result that cannot be written at its path is
	// saved instead.
	TempDir = "/tmp"
	// tempSize bounds the temporary folder: a result and its renderings.
	tempSize = "64Mi"
	// ResultsDir is where the PersistentVolumeClaim the Spec names is
	// mounted; every pod writes its result there beside its log.
	ResultsDir = "/results"
	// containerName is the shard's container, named in the pod failure
	// policy.
	containerName = "vesload"
	// slack is added to the Job's deadline beyond the run's own length.
	slack = 5 * time.Minute
)

// Spec is what the manifests are rendered from. The command line fills
// it from the same flags as a run.
type Spec struct {
	// RunID is shared by every shard, names the objects
	// (vesload-<RunID>) and labels them; it must be a DNS label.
	RunID     string
	Namespace string // empty: the namespace kubectl applies to
	Image     string
	Shards    int
	// Profile is the resolved scenario as YAML: the ConfigMap's
	// profile.yaml. Files are more ConfigMap entries the profile refers
	// to under ConfigDir (body templates, a CA bundle). Neither may hold
	// a secret.
	Profile []byte
	Files   map[string][]byte
	// RenderedAt is now. StartAt is the wall-clock instant every shard
	// starts at; when it is zero the shards agree on their start when
	// they run (shard 0 hands it out, see loadgen/rendezvous), so the
	// manifests can be applied at any time. ReadyTimeout bounds how long
	// they wait for each other then.
	RenderedAt     time.Time
	StartAt        time.Time
	StartTolerance time.Duration
	ReadyTimeout   time.Duration
	// Args are more flags of the run, passed to every shard as given
	// (--allow-errors, --influx-url, ...).
	Args []string
	// PodMonitor adds a Prometheus Operator PodMonitor, which only a
	// cluster with its CRDs accepts; the pods' scrape annotations are
	// there either way.
	PodMonitor bool
	// Span is how long the schedule lasts and Timeout the run's request
	// timeout (the drain at the end); with MetricsLinger they bound the
	// Job's deadline.
	Span, Timeout time.Duration
	MetricsLinger time.Duration
	// PasswordSecret names the Secret holding the basic auth password
	// under PasswordKey; empty when the target needs none.
	PasswordSecret, PasswordKey string
	// CPU and Memory are each shard's resource requests (Kubernetes
	// quantities); Memory is also its limit.
	CPU, Memory string
	// Probe adds an init container per shard that measures the link to
	// the target (vesload probe) before the run.
	Probe bool
	// Target is the URL the probe measures; ProbeArgs are its TLS flags
	// (--cacert with a file under ConfigDir, --insecure).
	Target    string
	ProbeArgs []string
	// CertSecret names the Secret holding the client certificate, mounted
	// at CertDir into the run and the probe; empty when none is used.
	// CertPEM says it holds a PEM pair (tls.crt, tls.key, as a
	// kubernetes.io/tls Secret does) rather than a PKCS#12 store and its
	// password (client.p12, client.pass).
	CertSecret string
	CertPEM    bool
	// Dashboard has each shard serve its live report page on
	// DashboardPort, named "dashboard" in the pod and the Service;
	// DashboardLinger keeps it serving that long after the shard's run
	// (and lengthens the Job's deadline as much).
	Dashboard       bool
	DashboardLinger time.Duration
	// Consume adds one more pod to the run, a Job of its own beside the
	// shards' that follows the run's events on the output topic (vesload
	// consume) and prints a delivery result for merge; nil for none. When
	// the shards agree on their start, it is a member of the agreement:
	// the start waits for it, and shard 0 tells it the run's plan.
	Consume *Consumer
	// HV runs the shards as `vesload hv` (an HV-VES run): Profile holds
	// the producers, Args the producers' other flags.
	HV bool
	// PullPolicy is every container's imagePullPolicy; empty leaves the
	// cluster's default.
	PullPolicy string
	// ResultsClaim names a PersistentVolumeClaim mounted at ResultsDir in
	// every pod, which writes its result there beside its log (vesload
	// --result-dir); empty for none.
	ResultsClaim string
}

// Consumer is the delivery follower of a run on Kubernetes.
type Consumer struct {
	// URL is the output topic (kafka://, kafkas:// or dmaap://), without
	// credentials.
	URL string
	// Args are more flags of vesload consume (--grace, --group, --rps,
	// --batch, --kafka-mechanism, --kafka-insecure).
	Args []string
}

// CertFiles are the paths, under CertDir, of the client certificate
// and of its key (PEM) or its store's password file (PKCS#12); the
// other is empty.
func (s *Spec) CertFiles() (cert, key, passFile string) {
	if s.CertPEM {
		return CertDir + "/tls.crt", CertDir + "/tls.key", ""
	}
	return CertDir + "/client.p12", "", CertDir + "/client.pass"
}

// CertArgs are the TLS flags that hand the mounted certificate to a
// vesload command (the probe, the HV-VES shards).
func (s *Spec) CertArgs() []string {
	if s.CertSecret == "" {
		return nil
	}
	cert, key, pass := s.CertFiles()
	if key != "" {
		return []string{"--cert", cert, "--key", key}
	}
	return []string{"--cert", cert, "--cert-pass-file", pass}
}

// The patterns Validate checks names against, compiled on first use: only
// the kube subcommand needs them, and a pattern compiled at start-up costs
// every other subcommand its memory.
var (
	dnsLabel = lazyRegexp(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	quantity = lazyRegexp(`^[0-9]+(\.[0-9]+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$`)
	fileKey  = lazyRegexp(`^[-._a-zA-Z0-9]+$`)
)

// lazyRegexp returns a function that compiles expr the first time it is
// called and returns the same *regexp.Regexp ever after.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Validate checks the Spec; its errors name the field as the command
// line's flags do.
func (s *Spec) Validate() error {
	switch {
	case !dnsLabel().MatchString(s.RunID) || len(s.RunID) > 40:
		return fmt.Errorf("run id %q: on Kubernetes it names the objects, so it must be lower-case letters, digits and '-', at most 40 characters, starting and ending with a letter or digit", s.RunID)
	case s.Namespace != "" && (!dnsLabel().MatchString(s.Namespace) || len(s.Namespace) > 63):
		return fmt.Errorf("namespace %q: want a DNS label", s.Namespace)
	case s.Image == "":
		return fmt.Errorf("image: want a container image holding vesload")
	case s.Shards < 1 || s.Shards > 1000:
		return fmt.Errorf("shards %d: want 1 to 1000", s.Shards)
	case len(s.Profile) == 0:
		return fmt.Errorf("no profile")
	case !s.StartAt.IsZero() && !s.StartAt.After(s.RenderedAt):
		return fmt.Errorf("start %s is not after now (%s)", stamp(s.StartAt), stamp(s.RenderedAt))
	case s.StartAt.IsZero() && s.ReadyTimeout <= 0:
		return fmt.Errorf("ready timeout %v: want a positive duration", s.ReadyTimeout)
	case !quantity().MatchString(s.CPU):
		return fmt.Errorf("cpu %q: want a Kubernetes quantity such as 1 or 500m", s.CPU)
	case !quantity().MatchString(s.Memory):
		return fmt.Errorf("memory %q: want a Kubernetes quantity such as 256Mi", s.Memory)
	case s.PasswordSecret != "" && (!dnsLabel().MatchString(s.PasswordSecret) && !dnsSubdomain(s.PasswordSecret)):
		return fmt.Errorf("password secret %q: want the name of a Secret", s.PasswordSecret)
	case s.PasswordSecret != "" && !fileKey().MatchString(s.PasswordKey):
		return fmt.Errorf("password secret key %q: want a key of the Secret", s.PasswordKey)
	case s.CertSecret != "" && !dnsSubdomain(s.CertSecret):
		return fmt.Errorf("cert secret %q: want the name of a Secret", s.CertSecret)
	case s.Probe && s.Target == "":
		return fmt.Errorf("probe: no target")
	case s.DashboardLinger < 0 || (s.DashboardLinger > 0 && !s.Dashboard):
		return fmt.Errorf("dashboard linger %v: want 0, or a positive duration with the dashboard", s.DashboardLinger)
	case s.Consume != nil && s.Consume.URL == "":
		return fmt.Errorf("consume: no URL")
	case s.ResultsClaim != "" && !dnsSubdomain(s.ResultsClaim):
		return fmt.Errorf("results claim %q: want the name of a PersistentVolumeClaim", s.ResultsClaim)
	case s.PullPolicy != "" && s.PullPolicy != "Always" && s.PullPolicy != "IfNotPresent" && s.PullPolicy != "Never":
		return fmt.Errorf("pull policy %q: want Always, IfNotPresent or Never", s.PullPolicy)
	case s.HV && s.Probe:
		return fmt.Errorf("probe: measures an HTTP target, not an HV-VES collector")
	}
	for k := range s.Files {
		if !fileKey().MatchString(k) || k == ProfileKey {
			return fmt.Errorf("config file %q: want a plain file name other than %s", k, ProfileKey)
		}
	}
	return nil
}

func dnsSubdomain(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, part := range bytes.Split([]byte(s), []byte(".")) {
		if !dnsLabel().Match(part) {
			return false
		}
	}
	return true
}

// Name is the name of every object of the run.
func (s *Spec) Name() string { return "vesload-" + s.RunID }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Rendezvous is shard 0's address through the headless Service: the
// Job's pods are named <job>-<index> and take the Service as their
// subdomain.
func (s *Spec) Rendezvous() string {
	return fmt.Sprintf("%s-0.%s:%d", s.Name(), s.Name(), RendezvousPort)
}

// Render writes the manifests as one multi-document YAML stream, in the
// order kubectl should create them: ConfigMap, Service, PodMonitor (when
// asked for), Job.
func Render(w io.Writer, s Spec) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("kube: %w", err)
	}
	docs := []any{s.configMap(), s.service()}
	if s.PodMonitor {
		docs = append(docs, s.podMonitor())
	}
	docs = append(docs, s.job())
	if s.Consume != nil {
		docs = append(docs, s.consumerJob())
	}
	var buf bytes.Buffer
	s.header(&buf)
	for _, d := range docs {
		out, err := yaml.MarshalWithOptions(d, yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
		if err != nil {
			return fmt.Errorf("kube: render: %w", err)
		}
		buf.WriteString("---\n")
		buf.Write(out)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// header is the comment above the objects: when the shards start, how to
// wait for the Jobs and merge their results, and who reaches the live
// pages.
func (s *Spec) header(buf *bytes.Buffer) {
	if s.StartAt.IsZero() {
		fmt.Fprintf(buf, "# vesload run %s: %d shards, started together once all are running (within %v).\n", s.RunID, s.Shards, s.ReadyTimeout)
		fmt.Fprintf(buf, "# Apply at any time, wait for the Jobs to end, then merge:\n")
	} else {
		fmt.Fprintf(buf, "# vesload run %s: %d shards starting at %s.\n", s.RunID, s.Shards, stamp(s.StartAt))
		fmt.Fprintf(buf, "# Apply before %s (the shards refuse to start later than %v after it), wait for the Jobs to end, then merge:\n",
			stamp(s.StartAt), s.StartTolerance)
	}
	jobs, selector := "job/"+s.Name(), "job-name="+s.Name()
	if s.Consume != nil {
		// The shards' and the consumer's logs, each holding one result.
		jobs, selector = jobs+" job/"+s.ConsumerName(), "vesload/run-id="+s.RunID
	}
	fmt.Fprintf(buf, "#   kubectl wait --for=condition=complete --timeout=%ds %s\n", s.deadlineSeconds(s.jobDeadline()), jobs)
	fmt.Fprintf(buf, "#   kubectl logs -l %s --tail=-1 --prefix | vesload merge - -o %s.json\n", selector, s.Name())
	if s.ResultsClaim != "" {
		fmt.Fprintf(buf, "# Each pod also writes its result into the claim %s (%s/%s*.json): mount it in any pod and merge those files.\n",
			s.ResultsClaim, ResultsDir, s.Name())
	}
	if s.Dashboard {
		fmt.Fprintf(buf, "# Live pages: every shard serves one on port %d, without authentication, to whatever reaches the pod\n", DashboardPort)
		fmt.Fprintf(buf, "# (the headless Service %s publishes the port); look at one with kubectl port-forward pod/POD %d.\n", s.Name(), DashboardPort)
	}
}

func (s *Spec) meta() meta {
	return meta{Name: s.Name(), Namespace: s.Namespace, Labels: s.labels()}
}

// labels are the run's labels; selector picks its pods.
func (s *Spec) labels() map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       "vesload",
		"app.kubernetes.io/instance":   s.Name(),
		"app.kubernetes.io/managed-by": "vesload-kube",
		"vesload/run-id":               s.RunID,
	}
}

func (s *Spec) selector() map[string]string {
	return map[string]string{"app.kubernetes.io/name": "vesload", "vesload/run-id": s.RunID}
}

func (s *Spec) configMap() configMap {
	data := map[string]string{ProfileKey: string(s.Profile)}
	for k, v := range s.Files {
		data[k] = string(v)
	}
	return configMap{object: object{APIVersion: "v1", Kind: "ConfigMap", Metadata: s.meta()}, Data: data}
}

// service is headless: it gives the shards DNS names (the Job's pods use
// it as their subdomain) and a port Prometheus' service discovery sees.
func (s *Spec) service() service {
	svc := service{
		object: object{APIVersion: "v1", Kind: "Service", Metadata: s.meta()},
		Spec: serviceSpec{ClusterIP: "None", Selector: s.selector(),
			// Shard 0 must be reachable by name before it is ready: the
			// other shards ask it for the start while starting up.
			PublishNotReadyAddresses: true,
			Ports: []servicePort{
				{Name: "metrics", Port: MetricsPort, TargetPort: "metrics"},
				{Name: "rendezvous", Port: RendezvousPort, TargetPort: "rendezvous"},
			}},
	}
	if s.Dashboard {
		svc.Spec.Ports = append(svc.Spec.Ports, servicePort{Name: "dashboard", Port: DashboardPort, TargetPort: "dashboard"})
	}
	return svc
}

// podMonitor has the Prometheus Operator scrape every shard, with the
// shard's index as the label shard.
func (s *Spec) podMonitor() podMonitor {
	return podMonitor{
		object: object{APIVersion: "monitoring.coreos.com/v1", Kind: "PodMonitor", Metadata: s.meta()},
		Spec: podMonitorSpec{
			Selector: labelSelector{MatchLabels: s.selector()},
			PodMetricsEndpoints: []podMetricsEndpoint{{
				Port: "metrics", Path: "/metrics", Interval: "5s",
				Relabelings: []relabeling{
					{SourceLabels: []string{"__meta_kubernetes_pod_annotation_batch_kubernetes_io_job_completion_index"}, TargetLabel: "shard", Action: "replace"},
					{SourceLabels: []string{"__meta_kubernetes_pod_label_vesload_run_id"}, TargetLabel: "run_id", Action: "replace"},
				},
			}},
		},
	}
}

// args are a shard's command line: the profile, its shard of the run,
// the shared start, live metrics, and the result on stdout for merge.
func (s *Spec) args() []string {
	var a []string
	if s.HV {
		a = append(a, "hv")
	}
	a = append(a,
		"--profile", ConfigDir+"/"+ProfileKey,
		"--shard", fmt.Sprintf("auto/%d", s.Shards),
		"--run-id", s.RunID,
	)
	if s.StartAt.IsZero() {
		a = append(a, "--rendezvous", s.Rendezvous(), "--ready-timeout", s.ReadyTimeout.String())
	} else {
		a = append(a, "--start-at", stamp(s.StartAt))
	}
	a = append(a,
		"--start-tolerance", s.StartTolerance.String(),
		"--metrics-addr", fmt.Sprintf(":%d", MetricsPort),
		"--metrics-linger", s.MetricsLinger.String(),
		"-o", "-",
	)
	if s.ResultsClaim != "" {
		a = append(a, "--result-dir", ResultsDir)
	}
	if s.Consume != nil {
		a = append(a, "--with-consumer")
	}
	if s.Dashboard {
		// An explicit address: the page is served beyond loopback only
		// when asked to, and the pod's network is what reaches it.
		a = append(a, "--dashboard", DashboardAddr())
		if s.DashboardLinger > 0 {
			a = append(a, "--dashboard-linger", s.DashboardLinger.String())
		}
	}
	return append(a, s.Args...)
}

// wait is how long the pods may wait before the run starts.
func (s *Spec) wait() time.Duration {
	if s.StartAt.IsZero() {
		return s.ReadyTimeout
	}
	return s.StartAt.Sub(s.RenderedAt)
}

// DashboardAddr is where each shard serves its live page when the Spec
// asks for it: every address of the pod, on DashboardPort.
func DashboardAddr() string { return fmt.Sprintf("0.0.0.0:%d", DashboardPort) }

// jobDeadline bounds the shards' Job: the wait for the start, the run,
// its drain, the lingers, and slack.
func (s *Spec) jobDeadline() time.Duration {
	return s.wait() + s.Span + s.Timeout + s.MetricsLinger + s.DashboardLinger + slack
}

func (s *Spec) deadlineSeconds(d time.Duration) int64 {
	return int64(d.Round(time.Second) / time.Second)
}

// volumes are the pod's volumes beside the scenario: the temporary
// folder, and the results claim when one is named; mounts mounts them.
func (s *Spec) volumes() []configVolume {
	v := []configVolume{{Name: "tmp", EmptyDir: &emptyDirSource{SizeLimit: tempSize}}}
	if s.ResultsClaim != "" {
		v = append(v, configVolume{Name: "results", PersistentVolumeClaim: &claimSource{ClaimName: s.ResultsClaim}})
	}
	return v
}

func (s *Spec) mounts() []volumeMount {
	m := []volumeMount{{Name: "tmp", MountPath: TempDir}}
	if s.ResultsClaim != "" {
		m = append(m, volumeMount{Name: "results", MountPath: ResultsDir})
	}
	return m
}

// tempEnv points the temporary folder at its emptyDir.
func tempEnv() envVar { return envVar{Name: "TMPDIR", Value: TempDir} }

func (s *Spec) job() job {
	deadline := s.jobDeadline()
	return job{
		object: object{APIVersion: "batch/v1", Kind: "Job", Metadata: s.meta()},
		Spec: jobSpec{
			CompletionMode: "Indexed",
			Completions:    s.Shards,
			Parallelism:    s.Shards,
			// A re-created pod would run its shard late: one failure
			// fails the run.
			BackoffLimit: 0,
			PodFailurePolicy: podFailurePolicy{Rules: []podFailureRule{
				{Action: "FailJob", OnExitCodes: &onExitCodes{ContainerName: containerName, Operator: "NotIn", Values: []int{0}}},
				{Action: "FailJob", OnPodConditions: []onPodConditionReq{{Type: "DisruptionTarget", Status: "True"}}},
			}},
			ActiveDeadlineSeconds:   s.deadlineSeconds(deadline),
			TTLSecondsAfterFinished: 86400,
			Template:                s.podTemplate(),
		},
	}
}

func (s *Spec) podTemplate() podTemplate {
	labels := maps.Clone(s.labels())
	no := false
	c := container{
		Name: containerName, Image: s.Image, ImagePullPolicy: s.PullPolicy, Args: s.args(),
		Ports: []containerPort{
			{Name: "metrics", ContainerPort: MetricsPort, Protocol: "TCP"},
			{Name: "rendezvous", ContainerPort: RendezvousPort, Protocol: "TCP"},
		},
		Resources: resources{
			Requests: map[string]string{"cpu": s.CPU, "memory": s.Memory},
			Limits:   map[string]string{"memory": s.Memory},
		},
		VolumeMounts:    append([]volumeMount{{Name: "scenario", MountPath: ConfigDir, ReadOnly: true}}, s.mounts()...),
		SecurityContext: containerSecurity{ReadOnlyRootFilesystem: true, Capabilities: capabilities{Drop: []string{"ALL"}}},
	}
	if s.Dashboard {
		c.Ports = append(c.Ports, containerPort{Name: "dashboard", ContainerPort: DashboardPort, Protocol: "TCP"})
	}
	if s.PasswordSecret != "" {
		c.Env = []envVar{{Name: PasswordEnv, ValueFrom: &envSource{SecretKeyRef: secretKeyRef{Name: s.PasswordSecret, Key: s.PasswordKey}}}}
	}
	c.Env = append(c.Env, tempEnv())
	spec := podSpec{
		RestartPolicy:                 "Never",
		TerminationGracePeriodSeconds: int(s.Timeout/time.Second) + 5,
		Subdomain:                     s.Name(),
		SecurityContext:               podSecurity{RunAsNonRoot: true, RunAsUser: 65532, SeccompProfile: seccompProfile{Type: "RuntimeDefault"}},
		Affinity: &affinity{PodAntiAffinity: podAntiAffinity{Preferred: []weightedTerm{{
			// Spread the shards over nodes: a node's network, not its
			// CPU, is what usually limits a generator.
			Weight: 100,
			Term:   affinityTerm{LabelSelector: labelSelector{MatchLabels: s.selector()}, TopologyKey: "kubernetes.io/hostname"},
		}}}},
		Containers:                   []container{c},
		Volumes:                      append([]configVolume{{Name: "scenario", ConfigMap: &configMapSource{Name: s.Name()}}}, s.volumes()...),
		AutomountServiceAccountToken: &no,
		EnableServiceLinks:           &no,
	}
	if s.CertSecret != "" {
		// Secret files are root's with mode 0644 by default, which the
		// pods' non-root user can read; no other pod sees them.
		spec.Volumes = append(spec.Volumes, configVolume{Name: "client-cert", Secret: &secretSource{SecretName: s.CertSecret}})
		c.VolumeMounts = append(c.VolumeMounts, volumeMount{Name: "client-cert", MountPath: CertDir, ReadOnly: true})
		spec.Containers = []container{c}
	}
	if s.Probe {
		p := c
		p.Name = "probe"
		p.Args = append(append([]string{"probe", s.Target}, s.ProbeArgs...), s.CertArgs()...)
		p.Ports = nil
		spec.InitContainers = []container{p}
	}
	return podTemplate{
		Metadata: podMeta{Labels: labels, Annotations: map[string]string{
			"prometheus.io/scrape": "true",
			"prometheus.io/port":   strconv.Itoa(MetricsPort),
			"prometheus.io/path":   "/metrics",
		}},
		Spec: spec,
	}
}

// ConsumerName names the consumer's Job.
func (s *Spec) ConsumerName() string { return s.Name() + "-consume" }

// consumerArgs are the consumer's command line: the run to follow, how
// it learns the start and the plan (shard 0 tells it when the shards
// agree on their start at run time, else the wall-clock start and the
// run's span), and the delivery result on stdout for merge.
func (s *Spec) consumerArgs() []string {
	a := []string{"consume", s.Consume.URL, "--run-id", s.RunID}
	if s.StartAt.IsZero() {
		// The consumer is a member of the shards' start agreement: the
		// run starts once it reads the topic, and shard 0 tells it the
		// start and what the run sends.
		a = append(a, "--rendezvous", s.Rendezvous(), "--ready-timeout", s.ReadyTimeout.String())
	} else {
		a = append(a, "--start-at", stamp(s.StartAt), "--duration", (s.Span + s.Timeout).String())
	}
	a = append(a, s.Consume.Args...)
	if s.ResultsClaim != "" {
		a = append(a, "--result-dir", ResultsDir)
	}
	return append(a, "-o", "-")
}

// consumerJob is one pod beside the shards: it must be running before
// they start (its consumer group begins at the topic's end), so it is
// created with them; it has no ports and is not selected by the shards'
// Service, anti-affinity or PodMonitor.
func (s *Spec) consumerJob() job {
	deadline := s.wait() + s.Span + s.Timeout + slack
	j := s.job()
	j.Metadata.Name = s.ConsumerName()
	j.Spec.CompletionMode, j.Spec.Completions, j.Spec.Parallelism = "NonIndexed", 1, 1
	j.Spec.ActiveDeadlineSeconds = s.deadlineSeconds(deadline)
	labels := s.labels()
	labels["app.kubernetes.io/name"] = "vesload-consume"
	j.Metadata.Labels = labels
	pod := &j.Spec.Template
	pod.Metadata = podMeta{Labels: maps.Clone(labels)}
	spec := &pod.Spec
	c := spec.Containers[0]
	c.Args, c.Ports, c.Env = s.consumerArgs(), nil, []envVar{tempEnv()}
	c.VolumeMounts = s.mounts()
	spec.Containers = []container{c}
	spec.InitContainers = nil
	spec.Volumes = s.volumes()
	spec.Subdomain = ""
	spec.Affinity = nil
	return j
}
