package kube

// The types below are the few fields of the Kubernetes and Prometheus
// Operator objects that the manifests use, with the API's field names.
// Tests decode the rendered YAML strictly into k8s.io/api types and check
// it against Kubernetes' own schemas (internal/kubeschema), so a misspelt,
// misplaced or missing field fails there; the binary does not carry the
// Kubernetes API packages for them.

type meta struct {
	Name        string            `yaml:"name"`
	Namespace   string            `yaml:"namespace,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   meta   `yaml:"metadata"`
}

type configMap struct {
	object `yaml:",inline"`
	Data   map[string]string `yaml:"data"`
}

type service struct {
	object `yaml:",inline"`
	Spec   serviceSpec `yaml:"spec"`
}

type serviceSpec struct {
	ClusterIP                string            `yaml:"clusterIP"`
	Selector                 map[string]string `yaml:"selector"`
	PublishNotReadyAddresses bool              `yaml:"publishNotReadyAddresses"`
	Ports                    []servicePort     `yaml:"ports"`
}

type servicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort string `yaml:"targetPort"`
}

type job struct {
	object `yaml:",inline"`
	Spec   jobSpec `yaml:"spec"`
}

type jobSpec struct {
	CompletionMode          string           `yaml:"completionMode"`
	Completions             int              `yaml:"completions"`
	Parallelism             int              `yaml:"parallelism"`
	BackoffLimit            int              `yaml:"backoffLimit"`
	PodFailurePolicy        podFailurePolicy `yaml:"podFailurePolicy"`
	ActiveDeadlineSeconds   int64            `yaml:"activeDeadlineSeconds"`
	TTLSecondsAfterFinished int              `yaml:"ttlSecondsAfterFinished"`
	Template                podTemplate      `yaml:"template"`
}

type podFailurePolicy struct {
	Rules []podFailureRule `yaml:"rules"`
}

type podFailureRule struct {
	Action          string              `yaml:"action"`
	OnExitCodes     *onExitCodes        `yaml:"onExitCodes,omitempty"`
	OnPodConditions []onPodConditionReq `yaml:"onPodConditions,omitempty"`
}

type onExitCodes struct {
	ContainerName string `yaml:"containerName"`
	Operator      string `yaml:"operator"`
	Values        []int  `yaml:"values"`
}

type onPodConditionReq struct {
	Type   string `yaml:"type"`
	Status string `yaml:"status"`
}

type podTemplate struct {
	Metadata podMeta `yaml:"metadata"`
	Spec     podSpec `yaml:"spec"`
}

type podMeta struct {
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

type podSpec struct {
	RestartPolicy                 string         `yaml:"restartPolicy"`
	TerminationGracePeriodSeconds int            `yaml:"terminationGracePeriodSeconds"`
	Subdomain                     string         `yaml:"subdomain,omitempty"`
	SecurityContext               podSecurity    `yaml:"securityContext"`
	Affinity                      *affinity      `yaml:"affinity,omitempty"`
	InitContainers                []container    `yaml:"initContainers,omitempty"`
	Containers                    []container    `yaml:"containers"`
	Volumes                       []configVolume `yaml:"volumes,omitempty"`
	AutomountServiceAccountToken  *bool          `yaml:"automountServiceAccountToken"`
	EnableServiceLinks            *bool          `yaml:"enableServiceLinks"`
}

type podSecurity struct {
	RunAsNonRoot   bool           `yaml:"runAsNonRoot"`
	RunAsUser      int            `yaml:"runAsUser"`
	SeccompProfile seccompProfile `yaml:"seccompProfile"`
}

type seccompProfile struct {
	Type string `yaml:"type"`
}

type affinity struct {
	PodAntiAffinity podAntiAffinity `yaml:"podAntiAffinity"`
}

type podAntiAffinity struct {
	Preferred []weightedTerm `yaml:"preferredDuringSchedulingIgnoredDuringExecution"`
}

type weightedTerm struct {
	Weight int          `yaml:"weight"`
	Term   affinityTerm `yaml:"podAffinityTerm"`
}

type affinityTerm struct {
	LabelSelector labelSelector `yaml:"labelSelector"`
	TopologyKey   string        `yaml:"topologyKey"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type container struct {
	Name            string            `yaml:"name"`
	Image           string            `yaml:"image"`
	ImagePullPolicy string            `yaml:"imagePullPolicy,omitempty"`
	Args            []string          `yaml:"args"`
	Env             []envVar          `yaml:"env,omitempty"`
	Ports           []containerPort   `yaml:"ports,omitempty"`
	Resources       resources         `yaml:"resources"`
	VolumeMounts    []volumeMount     `yaml:"volumeMounts,omitempty"`
	SecurityContext containerSecurity `yaml:"securityContext"`
}

type envVar struct {
	Name      string     `yaml:"name"`
	Value     string     `yaml:"value,omitempty"`
	ValueFrom *envSource `yaml:"valueFrom,omitempty"`
}

type envSource struct {
	SecretKeyRef secretKeyRef `yaml:"secretKeyRef"`
}

type secretKeyRef struct {
	Name string `yaml:"name"`
	Key  string `yaml:"key"`
}

type containerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
	Protocol      string `yaml:"protocol"`
}

type resources struct {
	Requests map[string]string `yaml:"requests"`
	Limits   map[string]string `yaml:"limits"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly"`
}

type containerSecurity struct {
	AllowPrivilegeEscalation bool         `yaml:"allowPrivilegeEscalation"`
	ReadOnlyRootFilesystem   bool         `yaml:"readOnlyRootFilesystem"`
	Capabilities             capabilities `yaml:"capabilities"`
}

type capabilities struct {
	Drop []string `yaml:"drop"`
}

type configVolume struct {
	Name                  string           `yaml:"name"`
	ConfigMap             *configMapSource `yaml:"configMap,omitempty"`
	Secret                *secretSource    `yaml:"secret,omitempty"`
	EmptyDir              *emptyDirSource  `yaml:"emptyDir,omitempty"`
	PersistentVolumeClaim *claimSource     `yaml:"persistentVolumeClaim,omitempty"`
}

type emptyDirSource struct {
	SizeLimit string `yaml:"sizeLimit"`
}

type claimSource struct {
	ClaimName string `yaml:"claimName"`
}

type secretSource struct {
	SecretName string `yaml:"secretName"`
}

type configMapSource struct {
	Name string `yaml:"name"`
}

type podMonitor struct {
	object `yaml:",inline"`
	Spec   podMonitorSpec `yaml:"spec"`
}

type podMonitorSpec struct {
	Selector            labelSelector        `yaml:"selector"`
	PodMetricsEndpoints []podMetricsEndpoint `yaml:"podMetricsEndpoints"`
}

type podMetricsEndpoint struct {
	Port        string       `yaml:"port"`
	Path        string       `yaml:"path"`
	Interval    string       `yaml:"interval"`
	Relabelings []relabeling `yaml:"relabelings"`
}

type relabeling struct {
	SourceLabels []string `yaml:"sourceLabels"`
	TargetLabel  string   `yaml:"targetLabel"`
	Action       string   `yaml:"action"`
}
