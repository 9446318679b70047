package kube

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/vesload/vesload/internal/golden"
)

func testSpec() Spec {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	return Spec{
		RunID: "r42", Namespace: "loadtest", Image: "registry.example/vesload:1.0", Shards: 4,
		Profile:    []byte("name: ves-5k-10m\ntarget:\n  url: https://ves:8443/eventListener/v7\n  auth:\n    user: sample1\n    password_env: VESLOAD_PASSWORD\nload:\n  rps: 5000\n  duration: 10m\n"),
		Files:      map[string][]byte{"body-1.json": []byte(`{"event":{}}`)},
		RenderedAt: now, StartAt: now.Add(2 * time.Minute), StartTolerance: time.Second,
		Span: 10 * time.Minute, Timeout: 10 * time.Second, MetricsLinger: 30 * time.Second,
		PasswordSecret: "ves-auth", PasswordKey: "password",
		CPU: "1", Memory: "256Mi",
		Probe: true, Target: "https://ves:8443/eventListener/v7",
		PodMonitor: true,
	}
}

// objects decodes the stream strictly into the Kubernetes API's types:
// an unknown or misplaced field fails the test.
type objects struct {
	cm  corev1.ConfigMap
	svc corev1.Service
	pm  monitoringv1.PodMonitor
	job batchv1.Job
}

func decode(t *testing.T, out []byte) objects {
	t.Helper()
	var o objects
	docs := strings.Split(string(out), "\n---\n")
	for i, d := range docs[1:] { // the header comment, then the objects
		var head struct{ Kind string }
		if err := yaml.Unmarshal([]byte(d), &head); err != nil {
			t.Fatal(err)
		}
		targets := map[string]any{"ConfigMap": &o.cm, "Service": &o.svc, "PodMonitor": &o.pm, "Job": &o.job}
		target, ok := targets[head.Kind]
		if !ok {
			t.Fatalf("object %d is a %q", i+1, head.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(d), target); err != nil {
			t.Fatalf("object %d does not decode strictly: %v\n%s", i+1, err, d)
		}
	}
	return o
}

// TestRenderStartAgreedAtRunTime renders without a start instant: the
// shards meet at shard 0 through the headless Service, the Job waits
// for the ready timeout rather than until an instant, and without
// PodMonitor the stream holds no object a cluster lacking the Prometheus
// Operator would refuse.
func TestRenderStartAgreedAtRunTime(t *testing.T) {
	t.Parallel()
	s := testSpec()
	s.StartAt, s.ReadyTimeout, s.PodMonitor = time.Time{}, 5*time.Minute, false
	s.Args = []string{"--allow-errors"}
	var buf bytes.Buffer
	if err := Render(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/rendezvous.golden.yaml", buf.Bytes())
	if strings.Contains(buf.String(), "PodMonitor") || strings.Contains(buf.String(), "monitoring.coreos.com") {
		t.Error("a PodMonitor without --pod-monitor")
	}
	o := decode(t, buf.Bytes())
	args := strings.Join(o.job.Spec.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"--rendezvous vesload-r42-0.vesload-r42:9465 --ready-timeout 5m0s", "-o - --allow-errors"} {
		if !strings.Contains(args, want) || strings.Contains(args, "--start-at") {
			t.Errorf("args %q: want %q and no --start-at", args, want)
		}
	}
	if o.job.Name+"-0."+o.job.Spec.Template.Spec.Subdomain+":9465" != s.Rendezvous() || o.svc.Name != o.job.Spec.Template.Spec.Subdomain ||
		!o.svc.Spec.PublishNotReadyAddresses || o.svc.Spec.Ports[1].Port != RendezvousPort {
		t.Errorf("shard 0 is not reachable as %s: service %+v", s.Rendezvous(), o.svc.Spec)
	}
	if want := int64((5*time.Minute + 10*time.Minute + 10*time.Second + 30*time.Second + 5*time.Minute) / time.Second); *o.job.Spec.ActiveDeadlineSeconds != want {
		t.Errorf("deadline %d s, want %d", *o.job.Spec.ActiveDeadlineSeconds, want)
	}
	s.ReadyTimeout = 0
	if err := Render(&bytes.Buffer{}, s); err == nil || !strings.Contains(err.Error(), "ready timeout") {
		t.Errorf("no ready timeout: %v", err)
	}
}

func TestRenderDecodesStrictly(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := Render(&buf, testSpec()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/manifests.golden.yaml", buf.Bytes())
	o := decode(t, buf.Bytes())

	if o.cm.Kind != "ConfigMap" || o.cm.Name != "vesload-r42" || o.cm.Namespace != "loadtest" ||
		!strings.Contains(o.cm.Data[ProfileKey], "rps: 5000") || o.cm.Data["body-1.json"] != `{"event":{}}` {
		t.Errorf("config map %+v", o.cm)
	}
	if o.svc.Spec.ClusterIP != "None" || o.svc.Spec.Selector["vesload/run-id"] != "r42" || o.svc.Spec.Ports[0].Port != MetricsPort {
		t.Errorf("service spec %+v, want headless on the run's pods", o.svc.Spec)
	}
	ep := o.pm.Spec.PodMetricsEndpoints
	if o.pm.Kind != "PodMonitor" || len(ep) != 1 || *ep[0].Port != "metrics" || ep[0].RelabelConfigs[0].TargetLabel != "shard" {
		t.Errorf("pod monitor %+v", o.pm.Spec)
	}

	j := o.job.Spec
	if o.job.Kind != "Job" || *j.CompletionMode != batchv1.IndexedCompletion || *j.Completions != 4 || *j.Parallelism != 4 || *j.BackoffLimit != 0 {
		t.Errorf("job spec: mode %v completions %v parallelism %v backoff %v", *j.CompletionMode, *j.Completions, *j.Parallelism, *j.BackoffLimit)
	}
	if j.PodFailurePolicy == nil || len(j.PodFailurePolicy.Rules) != 2 || j.PodFailurePolicy.Rules[0].Action != batchv1.PodFailurePolicyActionFailJob {
		t.Errorf("pod failure policy %+v", j.PodFailurePolicy)
	}
	if want := int64((2*time.Minute + 10*time.Minute + 10*time.Second + 30*time.Second + 5*time.Minute) / time.Second); *j.ActiveDeadlineSeconds != want {
		t.Errorf("deadline %d s, want %d", *j.ActiveDeadlineSeconds, want)
	}
	pod := j.Template.Spec
	c := pod.Containers[0]
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"--profile /etc/vesload/profile.yaml", "--shard auto/4", "--run-id r42", "--start-at 2026-12-01T10:02:00Z", "--start-tolerance 1s", "-o -"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if pod.RestartPolicy != corev1.RestartPolicyNever || pod.Affinity.PodAntiAffinity == nil || len(pod.InitContainers) != 1 ||
		strings.Join(pod.InitContainers[0].Args, " ") != "probe https://ves:8443/eventListener/v7" {
		t.Errorf("pod spec %+v", pod)
	}
	if c.Resources.Requests.Cpu().String() != "1" || c.Resources.Requests.Memory().String() != "256Mi" {
		t.Errorf("resources %+v", c.Resources)
	}
	if len(c.Env) != 2 || c.Env[0].Name != PasswordEnv || c.Env[0].Value != "" || c.Env[0].ValueFrom.SecretKeyRef.Name != "ves-auth" {
		t.Errorf("env %+v, want the password from the Secret ves-auth", c.Env)
	}
	// The root filesystem is read-only: the temporary folder is an
	// emptyDir, in every container.
	for _, c := range append(pod.InitContainers, c) {
		var tmpdir, mounted bool
		for _, e := range c.Env {
			tmpdir = tmpdir || (e.Name == "TMPDIR" && e.Value == TempDir)
		}
		for _, m := range c.VolumeMounts {
			mounted = mounted || (m.Name == "tmp" && m.MountPath == TempDir && !m.ReadOnly)
		}
		if !tmpdir || !mounted || !*c.SecurityContext.ReadOnlyRootFilesystem {
			t.Errorf("container %s: TMPDIR %v, mounted %v: want the emptyDir at %s as $TMPDIR", c.Name, tmpdir, mounted, TempDir)
		}
	}
	if v := pod.Volumes[len(pod.Volumes)-1]; v.Name != "tmp" || v.EmptyDir == nil || v.EmptyDir.SizeLimit.String() != "64Mi" {
		t.Errorf("volumes %+v: want an emptyDir of 64Mi last", pod.Volumes)
	}
	if a := j.Template.Annotations; a["prometheus.io/scrape"] != "true" || a["prometheus.io/port"] != fmt.Sprint(MetricsPort) {
		t.Errorf("scrape annotations %v", a)
	}
}

func TestRenderRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.RunID = "R_42" }, "run id \"R_42\""},
		{func(s *Spec) { s.RunID = strings.Repeat("a", 41) }, "at most 40"},
		{func(s *Spec) { s.Shards = 0 }, "shards 0"},
		{func(s *Spec) { s.Image = "" }, "image"},
		{func(s *Spec) { s.StartAt = s.RenderedAt }, "is not after now"},
		{func(s *Spec) { s.CPU = "one" }, "cpu \"one\""},
		{func(s *Spec) { s.Memory = "lots" }, "memory \"lots\""},
		{func(s *Spec) { s.PasswordSecret = "Bad Name" }, "password secret"},
		{func(s *Spec) { s.Files = map[string][]byte{"../x": nil} }, "config file"},
		{func(s *Spec) { s.Files = map[string][]byte{ProfileKey: nil} }, "config file"},
		{func(s *Spec) { s.Namespace = "Not/OK" }, "namespace"},
		{func(s *Spec) { s.ResultsClaim = "Bad_Claim" }, "results claim \"Bad_Claim\""},
		{func(s *Spec) { s.PullPolicy = "Sometimes" }, "pull policy"},
		{func(s *Spec) { s.HV = true }, "probe: measures an HTTP target"},
	}
	for _, tt := range tests {
		s := testSpec()
		tt.edit(&s)
		err := Render(&bytes.Buffer{}, s)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
}
