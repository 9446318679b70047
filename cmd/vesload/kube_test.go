package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report"
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
	var svc corev1.Service
	var job batchv1.Job
	docs := strings.Split(manifests, "\n---\n")
	if len(docs) != 5 {
		t.Fatalf("%d documents, want a header and 4 objects", len(docs))
	}
	for i, target := range map[int]any{1: &cm, 2: &svc, 4: &job} {
		if err := yaml.UnmarshalStrict([]byte(docs[i]), target); err != nil {
			t.Fatalf("document %d does not decode strictly: %v", i, err)
		}
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
	if code != exitOK || !strings.Contains(errs, "4 shards of run r42 start at 2026-12-01T10:02:01Z") {
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
	if len(env) != 1 || env[0].ValueFrom == nil || env[0].ValueFrom.SecretKeyRef.Name != "ves-auth" || env[0].Value != "" {
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
		{[]string{"--shards", "2", "-url", url, "-H", "Authorization: Bearer x"}, "target.headers.Authorization: credentials are not written in a profile"},
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
		{[]string{"--shards", "2", "-url", url, "-profile", "hv-6x60000-8k"}, "an HV-VES profile: not available on Kubernetes yet"},
	}
	for _, tt := range tests {
		code, out, errs := kubeRender(t, kubeNow, tt.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stdout %.30q stderr %q, want exit 2 and one line with %q", tt.args, code, out, errs, tt.want)
		}
	}
}

// TestKubeManifestsRun runs what the manifests describe, without a
// cluster: the ConfigMap's files in a folder standing for its mount, and
// each pod's container arguments as a process with JOB_COMPLETION_INDEX
// and the Secret's password in its environment, as the kubelet would.
// Their logs merge into the whole run.
func TestKubeManifestsRun(t *testing.T) {
	t.Parallel()
	base, stop := startServe(t, "--auth", "sample1:kube-pw")
	defer stop()
	code, out, errs := kubeRender(t, time.Now(), "--shards", "2", "-url", base+"/eventListener/v7", "-rps", "20", "-duration", "1s",
		"--user", "sample1", "--password-secret", "ves-auth", "--start-margin", "3s", "--metrics-linger", "0s", "--threshold", "error_rate<1%")
	if code != exitOK {
		t.Fatalf("kube: exit %d: %s", code, errs)
	}
	cm, job := kubeObjects(t, out)
	mount := t.TempDir()
	for k, v := range cm.Data {
		if err := os.WriteFile(filepath.Join(mount, k), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := job.Spec.Template.Spec.Containers[0]
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		a = strings.ReplaceAll(a, "/etc/vesload", mount)
		args[i] = strings.Replace(a, ":9464", "127.0.0.1:0", 1) // two pods, one host
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n := int(*job.Spec.Completions)
	logs := make([]bytes.Buffer, n)
	runErrs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		cmd := shardProc(ctx, i, args, &logs[i])
		cmd.Env = append(cmd.Env, "VESLOAD_PASSWORD=kube-pw")
		wg.Go(func() { runErrs[i] = cmd.Run() })
	}
	wg.Wait()
	var all strings.Builder
	for i := range n {
		if runErrs[i] != nil {
			t.Fatalf("pod %d: %v\n%s", i, runErrs[i], logs[i].String())
		}
		fmt.Fprint(&all, logs[i].String())
	}
	code, stdout, errs := mergeStream(all.String(), "-")
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	m, err := report.Decode(strings.NewReader(stdout), "merged")
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests.Scheduled != 20 || m.Requests.OK != 20 || m.Merged.Count != 2 || len(m.Thresholds) != 1 || !m.Thresholds[0].Pass {
		t.Fatalf("merged requests %+v merged %+v thresholds %+v", m.Requests, m.Merged, m.Thresholds)
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
