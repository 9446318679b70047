package kubespec

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
)

// HV is an HV-VES run as its pods get it (`vesload hv` in every shard):
// the producers, which go into the pods' profile, and the flags of the
// run that the profile does not hold.
type HV struct {
	// Addr is the collector's HV-VES HOST:PORT as the pods reach it.
	Addr string
	// Producers, Messages, Size and Interval are the resolved producers
	// (flags over a profile); each shard runs producers p ≡ I mod N.
	Producers, Messages, Size int
	Interval                  time.Duration
	Domain                    string
	// DialTimeout, WriteTimeout and Settle are hv's flags of the same
	// names; WriteTimeout and Settle also bound the Job's deadline.
	DialTimeout, WriteTimeout, Settle time.Duration
	// CACert is a CA bundle on this machine, shipped in the ConfigMap;
	// Insecure skips the collector's verification.
	CACert   string
	Insecure bool
	// TargetMetrics is the collector's metrics endpoint: shard 0 follows
	// its counters for the whole run.
	TargetMetrics string
	// Thresholds are the run's gates, judged on the merged result.
	Thresholds []string
	// Labels are the run's labels (--label over the profile's), which
	// every shard records in its result and merge checks they agree on.
	Labels map[string]string
}

// BuildHV checks that an HV-VES run can run in pods and returns the Spec
// of its manifests: the producers in the pods' profile, the rest as hv's
// flags. The caller adds the Spec's other Args, Dashboard and Consume,
// then calls Validate.
func BuildHV(h HV, o Options) (*kube.Spec, error) {
	switch {
	case h.Addr == "":
		return nil, errors.New("--addr: the pods need the collector's HV-VES HOST:PORT as they reach it, e.g. ves-hv-collector:6061")
	case o.Shards > h.Producers:
		return nil, fmt.Errorf("--shards %d: more than the %d producers: a shard runs whole producers (p ≡ I mod N), so some would have none", o.Shards, h.Producers)
	case o.Probe:
		return nil, errors.New("--probe: measures an HTTP target: not available for HV-VES")
	case o.PasswordSecret != "":
		return nil, errors.New("--password-secret: HV-VES has no basic auth: give --cert-secret for a client certificate")
	case o.PromURL != "" || len(o.PromQueries) > 0:
		return nil, errors.New("--prom-url/--prom-query: not available for HV-VES on Kubernetes yet")
	}
	p := profiles.Profile{
		Name: "hv", Protocol: profiles.ProtocolHVVES, Thresholds: uniq(h.Thresholds), Labels: h.Labels,
		Load:     profiles.Shape{Producers: &profiles.Producers{Count: h.Producers, Messages: int64(h.Messages), Interval: h.Interval}},
		Requests: []profiles.Request{{Name: "hv", Size: h.Size}},
	}
	text, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	runID := o.RunID
	if runID == "" {
		runID = ves.NewRunID()
	}
	s := &kube.Spec{
		RunID: runID, Namespace: o.Namespace, Image: o.Image, Shards: o.Shards, HV: true,
		Profile: text, Files: map[string][]byte{}, PullPolicy: PullPolicy(o.Image),
		RenderedAt: o.Now, StartAt: o.StartAt, StartTolerance: o.StartTolerance, ReadyTimeout: o.ReadyTimeout,
		PodMonitor: o.PodMonitor,
		Span:       time.Duration(max(h.Messages, 1)) * h.Interval, Timeout: h.WriteTimeout + h.Settle, MetricsLinger: o.MetricsLinger,
		CPU: o.CPU, Memory: o.Memory,
		CertSecret: o.CertSecret, CertPEM: o.CertFormat == "pem",
	}
	if o.CertSecret != "" && o.CertFormat != "p12" && o.CertFormat != "pem" {
		return nil, fmt.Errorf("--cert-secret-format %s: want p12 or pem", o.CertFormat)
	}
	s.Args = []string{"--addr", h.Addr, "--domain", h.Domain, "--dial-timeout", h.DialTimeout.String(),
		"--write-timeout", h.WriteTimeout.String(), "--settle", h.Settle.String()}
	if h.CACert != "" {
		if o.ReadFile == nil {
			return nil, errors.New("--cacert: no file reader to ship it")
		}
		b, err := o.ReadFile(h.CACert)
		if err != nil {
			return nil, fmt.Errorf("--cacert: %v", err)
		}
		s.Files["ca.pem"] = b
		s.Args = append(s.Args, "--cacert", kube.ConfigDir+"/ca.pem")
	}
	if h.Insecure {
		s.Args = append(s.Args, "--insecure")
	}
	s.Args = append(s.Args, s.CertArgs()...)
	if h.TargetMetrics != "" {
		u, err := url.Parse(h.TargetMetrics)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return nil, fmt.Errorf("--target-metrics %q: want an http:// or https:// URL", h.TargetMetrics)
		case u.User != nil:
			return nil, errors.New("--target-metrics: credentials in the URL would be written into the manifests")
		}
		s.Args = append(s.Args, "--target-metrics", h.TargetMetrics)
	}
	return s, nil
}

// PullPolicy is the imagePullPolicy of image: IfNotPresent for an image
// named without a registry (vesload:1.0, as `make image` builds it and
// kind or k3s load it), which a cluster would otherwise look for on a
// public registry; the cluster's default for any other.
func PullPolicy(image string) string {
	first, _, found := strings.Cut(image, "/")
	if found && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return ""
	}
	return "IfNotPresent"
}
