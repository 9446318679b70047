package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/internal/kubeschema"
	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

var kubeNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func kubeRender(t *testing.T, now time.Time, args ...string) (code int, out, errs string) {
	t.Helper()
	var o, e bytes.Buffer
	code = kubeCommand(args, now, &o, &e)
	return code, o.String(), e.String()
}

// kubeObjects decodes the manifests strictly into the Kubernetes API's
// types (unknown fields fail) and returns the ConfigMap and the Job.
func kubeObjects(t *testing.T, manifests string) (corev1.ConfigMap, batchv1.Job) {
	t.Helper()
	var cm corev1.ConfigMap
	var job batchv1.Job
	docs := strings.Split(manifests, "\n---\n")
	for i, d := range docs[1:] {
		var head struct{ Kind string }
		if err := yaml.Unmarshal([]byte(d), &head); err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
		var target any
		switch head.Kind {
		case "ConfigMap":
			target = &cm
		case "Service":
			target = &corev1.Service{}
		case "Job":
			target = &batchv1.Job{}
		case "PodMonitor":
			continue // deploy/kube's tests decode it
		default:
			t.Fatalf("document %d is a %q", i+1, head.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(d), target); err != nil {
			t.Fatalf("document %d does not decode strictly: %v", i+1, err)
		}
		// The shards' Job is the Indexed one; the consumer's is another.
		if j, ok := target.(*batchv1.Job); ok && j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
			job = *j
		}
	}
	if cm.Name == "" || job.Name == "" {
		t.Fatalf("no ConfigMap or no Job in %d documents", len(docs)-1)
	}
	return cm, job
}

// TestKubeExample renders the example kept in deploy/kubernetes from the
// command line the README shows, so that the example is what the command
// writes.
func TestKubeExample(t *testing.T) {
	t.Parallel()
	code, out, errs := kubeRender(t, kubeNow, "--shards", "4", "-profile", "ves-100rps-10m",
		"-url", "https://ves:8443/eventListener/v7", "--user", "sample1", "--password-secret", "ves-auth",
		"--run-id", "r42", "--namespace", "onap", "--image", "registry.example/vesload:1.0")
	if code != exitOK || !strings.Contains(errs, "4 shards of run r42 start together once all are running (within --ready-timeout 5m0s)") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden.Check(t, "../../deploy/kubernetes/vesload-r42.yaml", []byte(out))
	cm, job := kubeObjects(t, out)
	if !strings.Contains(cm.Data["profile.yaml"], "password_env: VESLOAD_PASSWORD") || *job.Spec.Completions != 4 {
		t.Fatalf("profile %q completions %d", cm.Data["profile.yaml"], *job.Spec.Completions)
	}
}

// TestKubeNoSecrets renders a scenario whose password is in a file and in
// $VESLOAD_PASSWORD: neither value may appear in the manifests.
func TestKubeNoSecrets(t *testing.T) {
	dir := t.TempDir()
	const fromFile, fromEnv = "pw-from-file-7f3a", "pw-from-env-91c2"
	t.Setenv("VESLOAD_PASSWORD", fromEnv)
	pw := filepath.Join(dir, "pw")
	body := filepath.Join(dir, "body.json")
	prof := filepath.Join(dir, "p.yaml")
	for path, text := range map[string]string{
		pw:   fromFile + "\n",
		body: `{"event":{"commonEventHeader":{"domain":"fault","eventId":"{{.EventID}}"}}}`,
		prof: "name: secret-test\ntarget:\n  url: https://ves:8443/eventListener/v7\n  auth:\n    user: sample1\n    password_file: pw\nload:\n  rps: 10\n  duration: 1m\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := kubeRender(t, kubeNow, "--shards", "2", "-profile", prof, "--password-secret", "ves-auth", "--body-file", body)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, secret := range []string{fromFile, fromEnv} {
		if strings.Contains(out, secret) || strings.Contains(errs, secret) {
			t.Fatalf("the manifests carry the password %q", secret)
		}
	}
	cm, job := kubeObjects(t, out)
	if cm.Data["body-1.json"] == "" || !strings.Contains(cm.Data["profile.yaml"], "/etc/vesload/body-1.json") || strings.Contains(cm.Data["profile.yaml"], dir) {
		t.Errorf("the body template did not travel in the ConfigMap: %v", cm.Data)
	}
	env := job.Spec.Template.Spec.Containers[0].Env
	if len(env) != 2 || env[0].ValueFrom == nil || env[0].ValueFrom.SecretKeyRef.Name != "ves-auth" || env[0].Value != "" || env[1].Name != "TMPDIR" {
		t.Errorf("env %+v, want the password from the Secret only", env)
	}
}

func TestKubeRefuses(t *testing.T) {
	t.Parallel()
	url := "https://ves:8443/eventListener/v7"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-url", url}, "--shards 0"},
		{[]string{"--shards", "2"}, "--url: the pods need"},
		{[]string{"--shards", "2", "-url", "https://u:pw@ves:8443/eventListener/v7"}, "credentials in the URL"},
		{[]string{"--shards", "2", "-url", url, "-H", "Authorization: Bearer x"}, "--header Authorization: credentials are not given on the command line"},
		{[]string{"--shards", "2", "-url", url, "--user", "u"}, "--password-secret NAME"},
		{[]string{"--shards", "2", "-url", url, "-H", "Cookie: s=1"}, "--header Cookie: its value would be written into the ConfigMap"},
		{[]string{"--shards", "2", "-url", url, "--password-secret", "s"}, "--password-secret needs --user"},
		{[]string{"--shards", "2", "-url", url, "-o", "r.json"}, "--output: each shard writes its result to its log"},
		{[]string{"--shards", "2", "-url", url, "--shard", "1/2"}, "--shard: the pods take"},
		{[]string{"--shards", "2", "-url", url, "--run-id", "Bad_ID"}, "run id \"Bad_ID\""},
		{[]string{"--shards", "2", "-url", url, "--cpu", "lots"}, "cpu \"lots\""},
		{[]string{"--shards", "2", "-url", url, "--start-at", "2020-01-01T00:00:00Z"}, "is not after now"},
		{[]string{"--shards", "2", "-url", url, "--body-file", "/nonexistent"}, "--body-file"},
		{[]string{"--shards", "2", "-url", url, "extra"}, "unexpected argument"},
		{[]string{"--shards", "2", "-profile", "hv-6x60000-8k"}, "--addr: the pods need the collector's HV-VES HOST:PORT"},
		{[]string{"--shards", "2", "-url", url, "-profile", "hv-6x60000-8k"}, "vesload kube: unknown flag: --url"},
		{[]string{"--frobnicate", "3"}, "vesload kube: unknown flag: --frobnicate"},
		{[]string{"hv", "--frobnicate", "3"}, "vesload kube: unknown flag: --frobnicate"},
		{[]string{"--shards", "2", "-url", url, "--start-at", "+30s"}, "--start-at +30s: a relative start is counted from each shard's own launch"},
		{[]string{"hv", "--shards", "2", "--addr", "hv:6061", "--start-at", "+30s"}, "--start-at +30s: a relative start"},
		{[]string{"hv", "--shards", "3", "--addr", "hv:6061", "--producers", "2"}, "--shards 3: more than the 2 producers"},
		{[]string{"hv", "--shards", "2", "--addr", "hv:6061", "--cert", "c.p12"}, "--cert: the file is on this machine"},
		{[]string{"hv", "--shards", "2", "--addr", "hv:6061", "--probe"}, "--probe: measures an HTTP target"},
		{[]string{"hv", "--shards", "2", "--addr", "hv:6061", "--label", "x"}, `--label: label "x": want KEY=VALUE`},
		{[]string{"--shards", "2", "-url", url, "--results-claim", "Bad_Claim"}, "results claim \"Bad_Claim\""},
		{[]string{"--shards", "2", "-url", url, "--result-dir", "/tmp"}, "--result-dir: give --results-claim NAME"},
		{[]string{"--shards", "2", "-profile", "ingress-concurrency-ramp", "-url", url, "--consume", "kafka://k:9092/t"}, "--consume: needs an open-model load"},
	}
	for _, tt := range tests {
		code, out, errs := kubeRender(t, kubeNow, tt.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stdout %.30q stderr %q, want exit 2 and one line with %q", tt.args, code, out, errs, tt.want)
		}
	}
}

// jobHarness runs what the manifests describe without a cluster: the
// ConfigMap's files in a folder standing for its mount, and each pod's
// container arguments as a process with JOB_COMPLETION_INDEX and the
// Secret's password in its environment, as the kubelet would. Shard 0's
// name in the headless Service maps to a loopback port, and every shard's
// metrics and live page to ports of their own. Each pod has a folder of
// its own for its emptyDir ($TMPDIR), and the results claim is one folder
// all pods share. With --consume, the consumer's Job is one more pod.
type jobHarness struct {
	args     []string
	consumer []string // the consumer pod's arguments; nil without one
	shards   int
	env      []string
	root     string // the pods' emptyDirs: tmp-I, tmp-consume
	results  string // the results claim
	// consumerDelay is when the consumer pod starts, as run's delays.
	consumerDelay time.Duration
}

func newJobHarness(t *testing.T, manifests string, env ...string) *jobHarness {
	t.Helper()
	cm, job := kubeObjects(t, manifests)
	mount := t.TempDir()
	for k, v := range cm.Data {
		if err := os.WriteFile(filepath.Join(mount, k), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	loopback := ln.Addr().String()
	ln.Close()
	service := fmt.Sprintf("%s-0.%s:%d", job.Name, job.Spec.Template.Spec.Subdomain, kube.RendezvousPort)
	c := job.Spec.Template.Spec.Containers[0]
	h := &jobHarness{shards: int(*job.Spec.Completions), env: env, root: t.TempDir(), results: t.TempDir()}
	local := func(args []string) []string {
		var out []string
		for _, a := range args {
			a = strings.ReplaceAll(a, kube.ConfigDir, mount)
			a = strings.Replace(a, fmt.Sprintf(":%d", kube.MetricsPort), "127.0.0.1:0", 1)
			a = strings.Replace(a, kubeDashboard, "127.0.0.1:0", 1)
			if a == kube.ResultsDir {
				a = h.results
			}
			out = append(out, strings.ReplaceAll(a, service, loopback))
		}
		return out
	}
	h.args = local(c.Args)
	if !slices.Contains(h.args, loopback) {
		t.Fatalf("the pods do not meet at %s: %q", service, c.Args)
	}
	if cj := kubeConsumerJob(t, manifests); cj != nil {
		h.consumer = local(cj.Spec.Template.Spec.Containers[0].Args)
	}
	return h
}

// kubeConsumerJob is the consumer's Job of the manifests, nil when there
// is none.
func kubeConsumerJob(t *testing.T, manifests string) *batchv1.Job {
	t.Helper()
	for _, d := range strings.Split(manifests, "\n---\n")[1:] {
		var j batchv1.Job
		if err := yaml.UnmarshalStrict([]byte(d), &j); err == nil && strings.HasSuffix(j.Name, "-consume") {
			return &j
		}
	}
	return nil
}

// pod is the outcome of one pod's process.
type pod struct {
	log     bytes.Buffer
	err     error
	started bool
	ended   time.Duration // since the harness began
	tmp     string        // its emptyDir
}

// run starts pod i after delays[i] (never when negative), and the
// consumer's pod, if any, after consumerDelay, as the last pod, and
// waits for all.
func (h *jobHarness) run(t *testing.T, delays []time.Duration) []*pod {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	n := h.shards
	if h.consumer != nil {
		n++
		delays = append(slices.Clone(delays), h.consumerDelay)
	}
	pods := make([]*pod, n)
	begin := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		p := &pod{tmp: filepath.Join(h.root, fmt.Sprintf("tmp-%d", i))}
		pods[i] = p
		if delays[i] < 0 {
			continue
		}
		if err := os.Mkdir(p.tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			select {
			case <-time.After(delays[i]): // a pod scheduled or pulled late
			case <-ctx.Done():
				return
			}
			cmd := shardProc(ctx, i, h.args, &p.log)
			if i == h.shards {
				cmd = exec.CommandContext(ctx, binary, h.consumer...)
				cmd.Env, cmd.Stdout, cmd.Stderr = os.Environ(), &p.log, &p.log
			}
			cmd.Env = append(cmd.Env, h.env...)
			cmd.Env = append(cmd.Env, "TMPDIR="+p.tmp)
			p.started = true
			p.err = cmd.Run()
			p.ended = time.Since(begin)
		})
	}
	wg.Wait()
	return pods
}

// TestKubeJobHarness renders a Job of 4 shards and runs it locally with
// the pods launched 0, 3, 6 and 9 s apart, shard 0 (which hands out the
// start) neither first nor last: they must start at one instant, their
// arrivals must interleave as one generator's do, and the merged result
// must be one generator's, every eventId once. Then, with one pod never
// started, the others must fail within --ready-timeout without sending.
// It does not run in parallel: other tests' load would blur the gaps.
func TestKubeJobHarness(t *testing.T) {
	// No basic auth here: the emulator checks passwords as slowly as the
	// collector does, which 40/s on a shared machine would overload.
	base, stop := startServe(t, "--record-arrivals")
	defer stop()
	const rate, secs = 40, 4
	code, out, errs := kubeRender(t, time.Now(), "--shards", "4", "-url", base+"/eventListener/v7", "-rps", fmt.Sprint(rate), "-duration", fmt.Sprintf("%ds", secs),
		"--metrics-linger", "0s", "--threshold", "error_rate<1%", "--pool", "16",
		"--start-tolerance", "2s", "--ready-timeout", "20s", "-q")
	if code != exitOK {
		t.Fatalf("kube: exit %d: %s", code, errs)
	}
	h := newJobHarness(t, out)
	pods := h.run(t, []time.Duration{6 * time.Second, 3 * time.Second, 9 * time.Second, 0})
	var all strings.Builder
	for i, p := range pods {
		if p.err != nil {
			t.Fatalf("pod %d: %v\n%s", i, p.err, p.log.String())
		}
		fmt.Fprint(&all, p.log.String())
	}
	st := emulatorStats(t, base)
	m := mergedLogs(t, all.String())
	want := int64(rate * secs)
	if m.Requests != (result.Requests{Scheduled: want, Sent: want, OK: want}) || m.Merged.Count != 4 || len(m.Thresholds) != 1 || !m.Thresholds[0].Pass {
		t.Fatalf("merged requests %+v merged %+v thresholds %+v\n%s", m.Requests, m.Merged, m.Thresholds, pods[0].log.String())
	}
	if st.Accepted != want || st.DuplicateEventIDs != 0 {
		t.Errorf("emulator accepted %d with %d duplicate eventIds, want %d and none", st.Accepted, st.DuplicateEventIDs, want)
	}
	starts := map[string]bool{}
	for _, line := range strings.Split(all.String(), "\n") {
		if _, rest, ok := strings.Cut(line, `"start_at": "`); ok {
			starts[rest] = true
		}
	}
	if len(starts) != 1 {
		t.Errorf("the shards started at %d instants: %v", len(starts), starts)
	}
	g := st.ArrivalGaps
	if g == nil || g.Count != want-1 {
		t.Fatalf("arrival gaps %+v, want %d", g, want-1)
	}
	nominalUs := (time.Second / rate).Microseconds()
	t.Logf("4 shards launched 0-9 s apart: arrival gaps (nominal %dµs) p1 %dµs p25 %dµs p50 %dµs p99 %dµs max %dµs; largest start offset %.3f ms",
		nominalUs, g.P1Us, g.P25Us, g.P50Us, g.P99Us, g.MaxUs, m.Merged.StartOffsetMaxMs)
	if g.P99Us >= 3*nominalUs || g.P25Us < nominalUs/4 || g.P50Us < nominalUs*3/4 {
		t.Errorf("gaps p25 %dµs p50 %dµs p99 %dµs around a nominal %dµs: the shards did not interleave as one generator", g.P25Us, g.P50Us, g.P99Us, nominalUs)
	}
	// One generator, the same schedule, to an emulator of its own: the
	// same counts, and the gaps the shards are compared with.
	base1, stop1 := startServe(t, "--record-arrivals")
	defer stop1()
	single := vesload(t, 60*time.Second, "-url", base1+"/eventListener/v7", "-rps", fmt.Sprint(rate), "-duration", fmt.Sprintf("%ds", secs),
		"-o", "-", "-q", "--pool", "16")
	if single.code != exitOK {
		t.Fatalf("single generator: exit %d: %s", single.code, single.stderr)
	}
	one, err := resultfile.Decode(strings.NewReader(single.stdout), "single")
	if err != nil {
		t.Fatal(err)
	}
	if one.Requests != m.Requests || one.Latency.Count != m.Latency.Count {
		t.Errorf("one generator: %+v (%d latencies); merged shards: %+v (%d)", one.Requests, one.Latency.Count, m.Requests, m.Latency.Count)
	}
	if g1 := emulatorStats(t, base1).ArrivalGaps; g1 != nil {
		t.Logf("one generator: arrival gaps p1 %dµs p25 %dµs p50 %dµs p99 %dµs max %dµs", g1.P1Us, g1.P25Us, g1.P50Us, g1.P99Us, g1.MaxUs)
	}

	// Shard 2 never starts: the others give up within --ready-timeout.
	code, out, errs = kubeRender(t, time.Now(), "--shards", "4", "-url", base+"/eventListener/v7", "-rps", "10", "-duration", "1s",
		"--metrics-linger", "0s", "--ready-timeout", "3s", "-q")
	if code != exitOK {
		t.Fatalf("kube: exit %d: %s", code, errs)
	}
	before := emulatorStats(t, base).EventRequests
	pods = newJobHarness(t, out).run(t, []time.Duration{0, 0, -1, time.Second})
	for i, p := range pods {
		if i == 2 {
			continue
		}
		var ee *exec.ExitError
		if !errors.As(p.err, &ee) || ee.ExitCode() != exitRun || p.ended > 3*time.Second+5*time.Second || !strings.Contains(p.log.String(), "no start") {
			t.Errorf("pod %d: %v after %v, want exit 1 within the ready timeout of 3s:\n%s", i, p.err, p.ended, p.log.String())
		}
	}
	if st := emulatorStats(t, base); st.EventRequests != before {
		t.Errorf("the shards sent %d requests without shard 2", st.EventRequests-before)
	}
}

// FuzzKubeArgs feeds the kube command arbitrary command lines: it must
// answer with manifests (exit 0) or one line of bad usage (exit 2), and
// never panic.
func FuzzKubeArgs(f *testing.F) {
	for _, s := range []string{
		"--shards 4 -url https://ves:8443/eventListener/v7",
		"--shards 2 -url http://h/eventListener/v7 --user u --password-secret s --run-id abc --cpu 500m",
		"--shards 0", "--shards 3 -url http://h -H Cookie:x", "--shards 1 -url http://h --start-at +1h --namespace ns",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for _, a := range args {
			// Files named on the command line are read: keep to flags.
			if strings.Contains(a, "file") || strings.Contains(a, "profile") || strings.Contains(a, "cacert") {
				return
			}
		}
		var out, errs bytes.Buffer
		code := kubeCommand(args, kubeNow, &out, &errs)
		switch code {
		case exitOK:
			if !strings.Contains(out.String(), "kind: Job") && !strings.HasPrefix(out.String(), "Usage:") {
				t.Fatalf("%q: exit 0 without a Job or the usage", line)
			}
		case exitUsage:
			if strings.Count(errs.String(), "\n") != 1 {
				t.Fatalf("%q: exit 2 with %q, want one line", line, errs.String())
			}
		default:
			t.Fatalf("%q: exit %d", line, code)
		}
	})
}

// TestKubeProbeTLS checks that the probe init step verifies the target as
// the run does: with the CA bundle shipped in the ConfigMap.
func TestKubeProbeTLS(t *testing.T) {
	t.Parallel()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := kubeRender(t, kubeNow, "--shards", "2", "-url", "https://ves:8443/eventListener/v7", "--cacert", ca, "--probe")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cm, job := kubeObjects(t, out)
	init := job.Spec.Template.Spec.InitContainers
	if len(init) != 1 || strings.Join(init[0].Args, " ") != "probe https://ves:8443/eventListener/v7 --cacert /etc/vesload/ca.pem" {
		t.Fatalf("init containers %+v", init)
	}
	if !strings.Contains(cm.Data["ca.pem"], "BEGIN CERTIFICATE") || !strings.Contains(cm.Data["profile.yaml"], "cacert: /etc/vesload/ca.pem") {
		t.Fatalf("config map %v", cm.Data)
	}
}

// TestKubeRunIDWidth checks that a run id chosen at render time is as wide
// as one a run chooses (64 bits): eventIds of different runs must not
// collide, and a 32-bit id does after some tens of thousands of runs.
func TestKubeRunIDWidth(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 2 {
		code, out, errs := kubeRender(t, kubeNow, "--shards", "4", "-profile", "ves-100rps-10m",
			"-url", "https://ves:8443/eventListener/v7")
		_, rest, ok := strings.Cut(errs, "4 shards of run ")
		id, _, _ := strings.Cut(rest, " ")
		if code != exitOK || !ok {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if err := ves.CheckRunID(id); err != nil || len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Errorf("run id %q (%v), want 16 hex digits as a run chooses", id, err)
		}
		if !strings.Contains(out, "vesload-"+id) || seen[id] {
			t.Errorf("run id %q not in the object names, or chosen twice", id)
		}
		seen[id] = true
	}
}

// TestKubeClientCertSecret renders a run whose client certificate is a
// PKCS#12 store in a Secret: the store and its password file are mounted
// from the Secret into the run and the probe, which get the paths (never
// the values), and the profile names the same paths.
func TestKubeClientCertSecret(t *testing.T) {
	t.Parallel()
	code, out, errs := kubeRender(t, kubeNow, "--shards", "2", "-url", "https://ves:8443/eventListener/v7",
		"--cert-secret", "ves-client", "--probe", "--insecure")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cm, job := kubeObjects(t, out)
	pod := job.Spec.Template.Spec
	init := pod.InitContainers
	wantProbe := "probe https://ves:8443/eventListener/v7 --insecure --cert /etc/vesload-tls/client.p12 --cert-pass-file /etc/vesload-tls/client.pass"
	if len(init) != 1 || strings.Join(init[0].Args, " ") != wantProbe {
		t.Fatalf("init containers %+v, want args %q", init, wantProbe)
	}
	var secretVol bool
	for _, v := range pod.Volumes {
		if v.Name == "client-cert" && v.Secret != nil && v.Secret.SecretName == "ves-client" {
			secretVol = true
		}
	}
	mounted := func(c corev1.Container) bool {
		for _, m := range c.VolumeMounts {
			if m.Name == "client-cert" && m.MountPath == "/etc/vesload-tls" && m.ReadOnly {
				return true
			}
		}
		return false
	}
	if !secretVol || !mounted(pod.Containers[0]) || !mounted(init[0]) {
		t.Fatalf("the Secret ves-client is not mounted read-only into both containers: volumes %+v", pod.Volumes)
	}
	p := cm.Data["profile.yaml"]
	if !strings.Contains(p, "cert: /etc/vesload-tls/client.p12") || !strings.Contains(p, "cert_pass_file: /etc/vesload-tls/client.pass") {
		t.Fatalf("profile does not name the mounted store:\n%s", p)
	}
	// A PEM pair in a kubernetes.io/tls Secret.
	code, out, errs = kubeRender(t, kubeNow, "--shards", "2", "-url", "https://ves:8443/eventListener/v7",
		"--cert-secret", "ves-client", "--cert-secret-format", "pem", "--probe")
	if code != exitOK {
		t.Fatalf("pem: exit %d: %s", code, errs)
	}
	cm, job = kubeObjects(t, out)
	if got := strings.Join(job.Spec.Template.Spec.InitContainers[0].Args, " "); !strings.HasSuffix(got, "--cert /etc/vesload-tls/tls.crt --key /etc/vesload-tls/tls.key") ||
		!strings.Contains(cm.Data["profile.yaml"], "key: /etc/vesload-tls/tls.key") {
		t.Fatalf("pem: probe args %q profile %s", got, cm.Data["profile.yaml"])
	}
	// Files on this machine are refused with what to do instead.
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--cert", "cli.p12"}, "give --cert-secret NAME"},
		{[]string{"--cert-pass-file", "cli.pass"}, "give --cert-secret NAME"},
		{[]string{"--cert-secret", "Bad_Name"}, "cert secret \"Bad_Name\""},
		{[]string{"--cert-secret", "x", "--cert-secret-format", "der"}, "--cert-secret-format der: want p12 or pem"},
	}
	for _, tt := range tests {
		code, _, errs := kubeRender(t, kubeNow, append([]string{"--shards", "2", "-url", "https://ves:8443/eventListener/v7"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stderr %q, want exit 2 and one line with %q", tt.args, code, errs, tt.want)
		}
	}
}

// TestKubeEveryFlag walks every flag `vesload kube --help` lists: given
// alone on top of a plain command line, each must change the manifests
// or be refused with one line (exit 2), never be accepted and dropped.
func TestKubeEveryFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	values := map[string]string{
		"profile":            "ves-100rps-10m",
		"url":                "https://other:8443/eventListener/v7",
		"event":              "heartbeat",
		"expect-status":      "202",
		"threshold":          "p99<500ms",
		"abort-on-fail":      "error_rate<5%",
		"header":             "X-Test: 1",
		"set":                "a=b",
		"body-file":          file("body.json", `{"event":{"commonEventHeader":{"domain":"fault","eventId":"{{.EventID}}"}}}`),
		"data-file":          file("rows.csv", "sourceName\nnode1\n"),
		"cacert":             file("ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"),
		"data-per":           "worker",
		"influx-url":         "http://influx:8086/write?db=jmeter",
		"target-metrics":     "http://ves:8443/actuator/prometheus",
		"prom-url":           "http://prom:9090",
		"prom-query":         "cpu=rate(process_cpu_seconds_total[1m])",
		"start-at":           kubeNow.Add(time.Hour).Format(time.RFC3339),
		"image":              "registry.example/vesload:2",
		"memory":             "1Gi",
		"cert-secret-format": "pem",
		"shards":             "3",
		"run-id":             "walk2",
		"consume":            "kafka://kafka:9092/unauthenticated.SEC_FAULT_OUTPUT",
		"cert":               "client.p12",
		"shard":              "1/2",
		"rendezvous":         "h:1",
		"dashboard":          kubeDashboard,
		"label":              "build=1.9.1",
	}
	base := []string{"--shards", "2", "-url", "https://ves:8443/eventListener/v7", "--run-id", "walk"}
	var o runOptions
	var k kubeOptions
	fs := runFlags(&o)
	kubeFlags(fs, &k)
	if n := walkKubeFlags(t, base, fs, values); n < 60 {
		t.Errorf("walked %d flags: fewer than kube --help lists", n)
	}
	// `vesload kube hv`: hv's flags and kube's.
	hvValues := map[string]string{
		"profile": "hv-2x90000-8k", "addr": "other:6061", "cacert": values["cacert"], "consume": values["consume"],
		"start-at": values["start-at"], "image": values["image"], "memory": "1Gi", "cert-secret-format": "pem", "shards": "3",
		"run-id": "walk2", "cert": "client.p12", "shard": "1/2", "rendezvous": "h:1", "dashboard": kubeDashboard,
		"threshold": "hv.lost==0", "abort-on-fail": "error_rate<5%", "target-metrics": "http://hv:6060/monitoring/prometheus",
		"influx-url": values["influx-url"], "prom-url": "http://prom:9090", "producers": "4", "label": values["label"],
	}
	var ho hvOptions
	var hk kubeOptions
	hfs := hvFlags(&ho)
	kubeFlags(hfs, &hk)
	if n := walkKubeFlags(t, []string{"hv", "--shards", "2", "--addr", "hv:6061", "--run-id", "walk"}, hfs, hvValues); n < 50 {
		t.Errorf("walked %d flags: fewer than kube hv --help lists", n)
	}
}

// walkKubeFlags gives every flag of fs alone on top of base (with values
// for those a type's default would not do) and checks that each changes
// the manifests or is refused with one line (exit 2); it returns how
// many flags it walked.
func walkKubeFlags(t *testing.T, base []string, fs *pflag.FlagSet, values map[string]string) int {
	t.Helper()
	code, plain, errs := kubeRender(t, kubeNow, base...)
	if code != exitOK {
		t.Fatalf("plain %v: exit %d: %s", base, code, errs)
	}
	n := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		n++
		v, ok := values[f.Name]
		if !ok {
			switch f.Value.Type() {
			case "bool":
				v = strconv.FormatBool(f.DefValue != "true")
			case "duration":
				v = "7s"
			case "int", "int32Slice":
				v = "3"
			case "float64", "float64Slice":
				v = "50"
			default:
				v = "x"
			}
		}
		args := append(slices.Clone(base), "--"+f.Name+"="+v)
		code, out, errs := kubeRender(t, kubeNow, args...)
		switch {
		case code == exitUsage && out == "" && strings.Count(errs, "\n") == 1:
		case code == exitOK && out != plain:
		default:
			t.Errorf("%v --%s=%s: exit %d, manifests changed %v, stderr %q: want them changed or one line and exit 2", base[:1], f.Name, v, code, out != plain, errs)
		}
	})
	return n
}

// TestKubeHVLabels: an HV-VES run's labels (--label over the profile's)
// reach the pods' profile, so that every shard records them and merge
// finds them agreed.
func TestKubeHVLabels(t *testing.T) {
	t.Parallel()
	code, out, errs := kubeRender(t, kubeNow, "hv", "--shards", "2", "--addr", "hv:6061", "--label", "build=1.9.1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`labels:\s+build: 1\.9\.1`).MatchString(out) {
		t.Errorf("the pods' profile lacks the label build=1.9.1:\n%s", out)
	}
}

// TestKubePullPolicy: an image named without a registry (the default, as
// `make image` tags it) is pulled IfNotPresent by every pod, so that an
// image loaded into the nodes is used; one with a registry keeps the
// cluster's default.
func TestKubePullPolicy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		image []string
		want  corev1.PullPolicy
	}{
		{nil, corev1.PullIfNotPresent},
		{[]string{"--image", "vesload:1.0"}, corev1.PullIfNotPresent},
		{[]string{"--image", "registry.example/vesload:1.0"}, ""},
	} {
		code, out, errs := kubeRender(t, kubeNow, append([]string{"--shards", "2", "-url", "https://ves:8443/eventListener/v7",
			"--consume", "kafka://kafka:9092/t", "--probe"}, tt.image...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tt.image, code, errs)
		}
		_, job := kubeObjects(t, out)
		pod := job.Spec.Template.Spec
		consumer := kubeConsumerJob(t, out).Spec.Template.Spec.Containers[0]
		for _, c := range []corev1.Container{pod.Containers[0], pod.InitContainers[0], consumer} {
			if c.ImagePullPolicy != tt.want {
				t.Errorf("%v: container %s pulls %q, want %q", tt.image, c.Name, c.ImagePullPolicy, tt.want)
			}
		}
	}
}

// TestKubeThresholdOnce: a threshold the profile gives and a flag gives
// again is one gate in the pods' profile.
func TestKubeThresholdOnce(t *testing.T) {
	t.Parallel()
	prof := filepath.Join(t.TempDir(), "p.yaml")
	text := "name: once\ntarget:\n  url: https://ves:8443/eventListener/v7\nload:\n  rps: 10\n  duration: 1m\nthresholds:\n  - p99<500ms\n"
	if err := os.WriteFile(prof, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := kubeRender(t, kubeNow, "--shards", "2", "-profile", prof, "--threshold", "p99<500ms", "--threshold", "error_rate<1%")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cm, _ := kubeObjects(t, out)
	p := cm.Data["profile.yaml"]
	if strings.Count(p, "p99<500ms") != 1 || strings.Count(p, "error_rate<1%") != 1 {
		t.Fatalf("thresholds in the pods' profile:\n%s", p)
	}
}

// TestKubeManifestVariants renders the manifests with every optional
// part (a password Secret, a client certificate Secret, the probe,
// target metrics and Prometheus queries, InfluxDB, PodMonitor on and
// off, a wall-clock start) and checks every object as kubeconform
// -strict does, against the OpenAPI schemas of the Kubernetes release
// that go.mod's k8s.io/api matches (internal/kubeschema): an unknown,
// misspelt or misplaced field, a missing required field or a wrong type
// fails. It also decodes them strictly into the Kubernetes API's types;
// the PodMonitor, a custom resource whose schema no module in go.mod
// carries, strictly into the Prometheus Operator's type.
func TestKubeManifestVariants(t *testing.T) {
	t.Parallel()
	schemas := kubeschema.ForTest(t)
	url := "https://ves:8443/eventListener/v7"
	variants := [][]string{
		{},
		{"--user", "sample1", "--password-secret", "ves-auth"},
		{"--cert-secret", "ves-client", "--cert-secret-format", "pem", "--probe"},
		{"--cert-secret", "ves-client", "--probe", "--user", "sample1", "--password-secret", "ves-auth"},
		{"--probe", "--insecure"},
		{"--target-metrics", "http://ves:8443/actuator/prometheus", "--prom-url", "http://prom:9090", "--prom-query", "cpu=rate(x[1m])"},
		{"--influx-url", "http://influx:8086/write?db=jmeter", "--allow-errors", "--no-preflight", "--abort-on-fail", "error_rate<5%"},
		{"--remote-write-url", "http://prom:9090/api/v1/write", "--remote-write-job", "ves", "--remote-write-insecure"},
		{"--pod-monitor", "--dashboard", "--dashboard-linger", "5m"},
		{"--pod-monitor", "--start-at", kubeNow.Add(time.Hour).Format(time.RFC3339)},
		{"--consume", "kafka://kafka:9092/unauthenticated.SEC_FAULT_OUTPUT", "--consume-grace", "10s", "--pod-monitor"},
		{"--consume", "kafkas://kafka:9093/t", "--kafka-insecure", "--start-at", kubeNow.Add(time.Hour).Format(time.RFC3339)},
		{"--results-claim", "vesload-results", "--image", "vesload:dev"},
		{"--consume", "kafka://kafka:9092/t", "--results-claim", "vesload-results", "--dashboard"},
	}
	// HV-VES runs: `vesload kube hv`, and an hv-ves profile.
	hv := [][]string{
		{"hv", "--addr", "hv:6061", "--producers", "6", "--messages", "100"},
		{"hv", "--addr", "hv:6061", "--producers", "3", "--cert-secret", "hv-client", "--cacert", kubeCA(t), "--target-metrics", "http://hv:6060/monitoring/prometheus", "--pod-monitor"},
		{"-profile", "hv-6x60000-8k", "--addr", "hv:6061", "--consume", "kafka://kafka:9092/HV_VES_PERF3GPP", "--results-claim", "r", "--dashboard"},
		{"hv", "--addr", "hv:6061", "--producers", "4", "--cert-secret", "hv-client", "--cert-secret-format", "pem", "--start-at", kubeNow.Add(time.Hour).Format(time.RFC3339), "--consume", "kafka://kafka:9092/t"},
	}
	for _, v := range hv {
		variants = append(variants, append([]string{"--hv"}, v...))
	}
	for _, v := range variants {
		args := append([]string{"--shards", "3", "-url", url}, v...)
		if len(v) > 0 && v[0] == "--hv" {
			args = append(v[1:], "--shards", "3")
		}
		code, out, errs := kubeRender(t, kubeNow, args...)
		if code != exitOK {
			t.Errorf("%v: exit %d: %s", v, code, errs)
			continue
		}
		kubeObjects(t, out)
		n, err := schemas.ValidateStream([]byte(out), func(kind string) bool { return kind == "PodMonitor" })
		if err != nil {
			t.Errorf("%v: %v", v, err)
		}
		if n < 3 {
			t.Errorf("%v: checked %d objects against the schemas", v, n)
		}
		kubePodMonitor(t, out)
		if hasPM := strings.Contains(out, "kind: PodMonitor"); hasPM != slices.Contains(v, "--pod-monitor") {
			t.Errorf("%v: PodMonitor %v", v, hasPM)
		}
		if slices.Contains(v, "--target-metrics") && !strings.Contains(out, "target_metrics: http://ves:8443/actuator/prometheus") &&
			!strings.Contains(out, "- --target-metrics\n") {
			t.Errorf("%v: target metrics neither in the pods' profile nor in their flags", v)
		}
		if slices.Contains(v, "--results-claim") && !strings.Contains(out, "persistentVolumeClaim:") {
			t.Errorf("%v: no results claim", v)
		}
	}
}

// kubeCA is a CA bundle file for the renderings that ship one.
func kubeCA(t *testing.T) string {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ca
}

// kubePodMonitor decodes the manifests' PodMonitor, if any, strictly
// into the Prometheus Operator's type.
func kubePodMonitor(t *testing.T, manifests string) {
	t.Helper()
	for _, d := range strings.Split(manifests, "\n---\n") {
		if strings.Contains(d, "\nkind: PodMonitor\n") {
			if err := yaml.UnmarshalStrict([]byte(d), &monitoringv1.PodMonitor{}); err != nil {
				t.Errorf("PodMonitor does not decode strictly: %v", err)
			}
		}
	}
}

// TestKubeSchemaRefuses: the schema check of TestKubeManifestVariants
// refuses rendered manifests with one mistake in them.
func TestKubeSchemaRefuses(t *testing.T) {
	t.Parallel()
	schemas := kubeschema.ForTest(t)
	code, out, errs := kubeRender(t, kubeNow, "--shards", "2", "-url", "https://ves:8443/eventListener/v7", "--probe")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := schemas.ValidateStream([]byte(out), nil); err != nil {
		t.Fatalf("unbroken: %v", err)
	}
	for _, c := range []struct{ name, old, new, want string }{
		{"unknown field", "  completionMode: Indexed\n", "  completionMode: Indexed\n  completionModes: Indexed\n", "completionModes"},
		{"misplaced field", "      restartPolicy: Never\n", "      restartPolicy: Never\n      backoffLimit: 0\n", "backoffLimit"},
		{"wrong type", "  clusterIP: None\n", "  clusterIP: [None]\n", "clusterIP"},
		{"missing required", "            - name: metrics\n              containerPort: 9464\n", "            - name: metrics\n", "containerPort"},
	} {
		broken := strings.Replace(out, c.old, c.new, 1)
		if broken == out {
			t.Fatalf("%s: %q is not in the manifests", c.name, c.old)
		}
		if _, err := schemas.ValidateStream([]byte(broken), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}

// TestKubeDashboard: with --dashboard every shard serves its live page on
// the pod's port 5665 (all addresses), named in the container and the
// headless Service, and the Job's deadline grows by --dashboard-linger.
// The rendered Job of two shards, run locally with the pages' addresses
// mapped to loopback ports: shard 0 serves its page during its run, and
// both exit 0 after the linger. It sets shard 0's index in the
// environment, so it does not run in parallel.
func TestKubeDashboard(t *testing.T) {
	base, stop := startServe(t)
	defer stop()
	args := []string{"--shards", "2", "-url", base + "/eventListener/v7", "-rps", "10", "-duration", "3s",
		"--metrics-linger", "0s", "--ready-timeout", "20s", "--run-id", "live1"}
	_, plain, _ := kubeRender(t, kubeNow, args...)
	_, plainJob := kubeObjects(t, plain)
	code, out, errs := kubeRender(t, kubeNow, append(args, "--dashboard", "--dashboard-linger", "1s")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Opt-in, and who reaches the pages is said: on stderr and in the
	// manifests' header; without --dashboard nothing is served.
	if !strings.Contains(errs, "without authentication, to whatever reaches its pod") || !strings.Contains(out, "# Live pages: every shard serves one on port 5665, without authentication") {
		t.Errorf("the exposure is not said: stderr %q", errs)
	}
	if strings.Contains(plain, "5665") || strings.Contains(plain, "--dashboard") {
		t.Errorf("a live page without --dashboard")
	}
	_, job := kubeObjects(t, out)
	c := job.Spec.Template.Spec.Containers[0]
	if i := slices.Index(c.Args, "--dashboard"); i < 0 || i+1 >= len(c.Args) || c.Args[i+1] != "0.0.0.0:5665" || !slices.Contains(c.Args, "--dashboard-linger") {
		t.Errorf("shard arguments %q: want --dashboard 0.0.0.0:5665 and --dashboard-linger", c.Args)
	}
	if !slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == "dashboard" && p.ContainerPort == 5665 }) {
		t.Errorf("container ports %+v: no dashboard 5665", c.Ports)
	}
	if !strings.Contains(out, "    - name: dashboard\n      port: 5665\n      targetPort: dashboard\n") {
		t.Errorf("the Service exposes no dashboard port:\n%s", out)
	}
	if d := *job.Spec.ActiveDeadlineSeconds - *plainJob.Spec.ActiveDeadlineSeconds; d != 1 {
		t.Errorf("deadline grew by %ds, want the linger's 1s", d)
	}
	for _, bad := range [][]string{{"--dashboard=127.0.0.1:5665"}, {"--dashboard=:0"}, {"--dashboard-linger", "1m"}} {
		code, out, errs := kubeRender(t, kubeNow, append(args, bad...)...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %d bytes of manifests, stderr %q: want one line and exit 2", bad, code, len(out), errs)
		}
	}

	h := newJobHarness(t, out)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var log1 bytes.Buffer
	shard1 := shardProc(ctx, 1, h.args, &log1)
	if err := shard1.Start(); err != nil {
		t.Fatal(err)
	}
	t.Setenv(jobIndexEnv, "0")
	u, exited, log := dashboardRun(t, h.args...)
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(page), `new EventSource("events")`) {
		t.Errorf("GET %s: %d, %v, %d bytes, live %v", u, resp.StatusCode, err, len(page), strings.Contains(string(page), "EventSource"))
	}
	resp, err = http.Get(u + "events")
	if err != nil {
		t.Fatal(err)
	}
	update, err := bufio.NewReader(resp.Body).ReadString('\n')
	resp.Body.Close()
	if err != nil || !strings.Contains(update, "requests sent") {
		t.Errorf("first update of %sevents: %.200q, %v", u, update, err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the shard: %v\n%s", err, log)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the shard did not end:\n%s", log)
	}
	if err := shard1.Wait(); err != nil {
		t.Errorf("shard 1: %v\n%s", err, log1.String())
	}
}

// TestKubeConsumer renders --consume as one more pod: a Job of its own
// running vesload consume on the run's id, for as long as the shards may
// run, its result on stdout; the merge line takes both Jobs' logs.
func TestKubeConsumer(t *testing.T) {
	t.Parallel()
	url := "https://ves:8443/eventListener/v7"
	topic := "kafka://kafka:9092/unauthenticated.SEC_FAULT_OUTPUT"
	at := kubeNow.Add(time.Hour).Format(time.RFC3339)
	tests := []struct {
		name string
		args []string
		want string // the consumer's arguments after its URL
	}{
		{"agreed start", []string{"-rps", "50", "-duration", "1m", "--consume", topic, "--consume-grace", "10s"},
			"--run-id c1 --rendezvous vesload-c1-0.vesload-c1:9465 --ready-timeout 5m0s --grace 10s -o -"},
		{"wall clock", []string{"-rps", "50", "-duration", "1m", "--start-at", at, "--consume", topic, "--consume-group", "g1", "--kafka-insecure"},
			"--run-id c1 --start-at " + at + " --duration 1m10s --grace 30s --batch 1 --rps 50 --group g1 --kafka-insecure -o -"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := kubeRender(t, kubeNow, append([]string{"--shards", "3", "-url", url, "--run-id", "c1"}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var consumer batchv1.Job
			for _, d := range strings.Split(out, "\n---\n")[1:] {
				var j batchv1.Job
				if err := yaml.UnmarshalStrict([]byte(d), &j); err == nil && j.Name == "vesload-c1-consume" {
					consumer = j
				}
			}
			_, shards := kubeObjects(t, out)
			if consumer.Name == "" || shards.Name != "vesload-c1" {
				t.Fatalf("jobs %q and %q: want vesload-c1 and vesload-c1-consume\n%s", shards.Name, consumer.Name, out)
			}
			pod := consumer.Spec.Template
			c := pod.Spec.Containers[0]
			if got := strings.Join(c.Args, " "); got != "consume "+topic+" "+tt.want {
				t.Errorf("consumer args %q, want %q", got, "consume "+topic+" "+tt.want)
			}
			if *consumer.Spec.Completions != 1 || pod.Labels["app.kubernetes.io/name"] == "vesload" || pod.Labels["vesload/run-id"] != "c1" {
				t.Errorf("consumer completions %d, labels %v: want one pod outside the shards' selector, of run c1", *consumer.Spec.Completions, pod.Labels)
			}
			if !strings.Contains(strings.Join(shards.Spec.Template.Spec.Containers[0].Args, " "), "--with-consumer") {
				t.Errorf("the shards do not announce the consumer: %q", shards.Spec.Template.Spec.Containers[0].Args)
			}
			if !strings.Contains(out, "kubectl logs -l vesload/run-id=c1 --tail=-1 --prefix | vesload merge -") ||
				!strings.Contains(out, "job/vesload-c1 job/vesload-c1-consume\n") {
				t.Errorf("the merge line does not take the consumer's log:\n%s", out[:strings.Index(out, "---")])
			}
		})
	}
}
