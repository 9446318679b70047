package kubespec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

var now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// resolved reads a profile as a run resolves it.
func resolved(t *testing.T, dir, text string) *profiles.Profile {
	t.Helper()
	path := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := profiles.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func options() Options {
	return Options{Shards: 2, Image: "vesload:test", CPU: "1", Memory: "256Mi", PasswordKey: "password", CertFormat: "p12",
		RunID: "r1", Now: now, ReadyTimeout: time.Minute, MetricsLinger: 30 * time.Second,
		ReadFile: os.ReadFile, LookupEnv: func(string) (string, bool) { return "", false }}
}

const base = `name: t
target:
  url: https://ves:8443/eventListener/v7
load:
  rps: 10
  duration: 1m
thresholds:
  - p99<500ms
  - p99<500ms
  - error_rate<1%
`

// Build rewrites the scenario for the pods: files into the ConfigMap,
// the password from the Secret, the certificate from its Secret, the
// samplers into the profile, one gate per threshold.
func TestBuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert, _, _ := testcert.Write(t)
	ca, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"event":{"commonEventHeader":{"domain":"fault"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sc := resolved(t, dir, base+`  - p50<100ms
requests:
  - name: fault
    body_file: body.json
`)
	sc.Target.TLS = &profiles.TLS{CACert: cert, Insecure: true}
	o := options()
	o.PasswordSecret, o.User = "ves-pass", "sample1"
	o.CertSecret, o.CertFormat = "ves-cert", "pem"
	o.TargetMetrics, o.PromURL, o.PromQueries = "http://ves:8080/metrics", "http://prom:9090", []string{"cpu=rate(x[1m])"}
	o.StartAt = now.Add(time.Minute)
	s, err := Build(sc, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if s.RunID != "r1" || s.Shards != 2 || s.Span != time.Minute || s.Target != sc.Target.URL || !s.StartAt.Equal(o.StartAt) || !s.CertPEM {
		t.Errorf("spec %+v", s)
	}
	if string(s.Files["ca.pem"]) != string(ca) || len(s.Files["body-1.json"]) == 0 || len(s.Files) != 2 {
		t.Errorf("files %v, want ca.pem and body-1.json", keys(s.Files))
	}
	if strings.Join(s.ProbeArgs, " ") != "--cacert "+kube.ConfigDir+"/ca.pem --insecure" {
		t.Errorf("probe args %q", s.ProbeArgs)
	}
	if s.PasswordSecret != "ves-pass" || s.PasswordKey != "password" {
		t.Errorf("password secret %q key %q", s.PasswordSecret, s.PasswordKey)
	}
	back, err := profiles.Parse(s.Profile, "pod.yaml")
	if err != nil {
		t.Fatalf("the pods' profile does not read back: %v\n%s", err, s.Profile)
	}
	a, tls := back.Target.Auth, back.Target.TLS
	switch {
	case a == nil || a.User != "sample1" || a.PasswordEnv != kube.PasswordEnv || a.PasswordFile != "":
		t.Errorf("auth %+v, want sample1 from $%s", a, kube.PasswordEnv)
	case tls.Cert != kube.CertDir+"/tls.crt" || tls.Key != kube.CertDir+"/tls.key" || tls.CACert != kube.ConfigDir+"/ca.pem":
		t.Errorf("tls %+v", tls)
	case back.Requests[0].BodyFile != kube.ConfigDir+"/body-1.json":
		t.Errorf("body file %q", back.Requests[0].BodyFile)
	case strings.Join(back.Thresholds, ",") != "p99<500ms,error_rate<1%,p50<100ms":
		t.Errorf("thresholds %q", back.Thresholds)
	case back.Samplers.TargetMetrics != o.TargetMetrics || back.Samplers.PromQueries["cpu"] != "rate(x[1m])":
		t.Errorf("samplers %+v", back.Samplers)
	case strings.Contains(string(s.Profile), dir) || strings.Contains(string(s.Profile), cert):
		t.Errorf("the pods' profile names a file of this machine:\n%s", s.Profile)
	}
	o.RunID = ""
	if s, err := Build(resolved(t, dir, base), o); err != nil || len(s.RunID) < 8 {
		t.Errorf("no run id: %v, %q; want a new one", err, s.RunID)
	}
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// Build refuses what would write a secret into the manifests, and what a
// pod cannot do; each error names the flag.
func TestBuildRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"event":{"x":"`+strings.Repeat("a", MaxFiles)+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(p *profiles.Profile, o *Options)
		want string
	}{
		{"no URL", func(p *profiles.Profile, _ *Options) { p.Target.URL = "" }, "--url: the pods need the collector's URL"},
		{"password in the URL", func(p *profiles.Profile, _ *Options) { p.Target.URL = "https://u:p@ves/eventListener/v7" }, "--url: credentials in the URL"},
		{"credential header", func(p *profiles.Profile, _ *Options) { p.Target.Headers = map[string]string{"X-Api-Key": "k"} }, "--header X-Api-Key: its value would be written"},
		{"user without its Secret", func(p *profiles.Profile, o *Options) {
			p.Target.Auth = &profiles.Auth{User: "u", PasswordEnv: "PW"}
			o.LookupEnv = func(name string) (string, bool) { return "pw", name == "PW" }
		}, "--user u: the pods need the password from a Secret"},
		{"Secret without a user", func(_ *profiles.Profile, o *Options) { o.PasswordSecret = "s" }, "--password-secret needs --user"},
		{"local process", func(p *profiles.Profile, _ *Options) { p.Samplers.TargetPID = 1 }, "-profile: samplers.target_pid"},
		{"bad certificate format", func(_ *profiles.Profile, o *Options) { o.CertSecret, o.CertFormat = "c", "jks" }, "--cert-secret-format jks: want p12 or pem"},
		{"client key without its Secret", func(p *profiles.Profile, _ *Options) { p.Target.TLS = &profiles.TLS{Cert: "c.pem", Key: "k.pem"} }, "--cert/--key: a client key is a secret"},
		{"missing CA file", func(p *profiles.Profile, _ *Options) {
			p.Target.TLS = &profiles.TLS{CACert: filepath.Join(dir, "none.pem")}
		}, "--cacert: "},
		{"unreadable body", func(p *profiles.Profile, o *Options) {
			p.Requests = []profiles.Request{{BodyFile: big}}
			o.ReadFile = func(string) ([]byte, error) { return nil, errors.New("denied") }
		}, "--body-file: denied"},
		{"too many bytes", func(p *profiles.Profile, _ *Options) { p.Requests = []profiles.Request{{BodyFile: big}} }, "KiB of files do not fit a ConfigMap"},
		{"credentials in the metrics URL", func(_ *profiles.Profile, o *Options) { o.TargetMetrics = "http://u:p@ves/metrics" }, "--target-metrics/--prom-url: credentials"},
		{"query without Prometheus", func(_ *profiles.Profile, o *Options) { o.PromQueries = []string{"a=b"} }, "--prom-query needs --prom-url"},
		{"bad query", func(_ *profiles.Profile, o *Options) { o.PromURL, o.PromQueries = "http://prom", []string{"a"} }, `--prom-query "a": want NAME=PROMQL`},
		{"unset password variable", func(p *profiles.Profile, o *Options) {
			p.Target.Auth = &profiles.Auth{User: "u", PasswordEnv: "NOT_SET"}
			o.PasswordSecret = ""
			o.User = ""
		}, "NOT_SET"},
	}
	for _, tt := range tests {
		sc := resolved(t, dir, base)
		o := options()
		tt.edit(sc, &o)
		_, err := Build(sc, o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
	}
}

func TestConsumerPod(t *testing.T) {
	t.Parallel()
	constant := profiles.Shape{RPS: 50, Duration: time.Minute}
	stages := profiles.Shape{Stages: []profiles.Stage{{RPS: 10, Duration: time.Minute}}}
	tests := []struct {
		c         Consumer
		load      profiles.Shape
		wallClock bool
		want      string
	}{
		{Consumer{URL: "kafka://k:9092/t", Grace: 30 * time.Second, Batch: 1}, constant, true, "--grace 30s --batch 1 --rps 50"},
		{Consumer{URL: "kafka://k:9092/t", Grace: time.Second, Batch: 4}, constant, false, "--grace 1s"},
		{Consumer{URL: "kafka://k:9092/t", Grace: time.Second, Batch: 1}, stages, true, "--grace 1s --batch 1"},
		{Consumer{URL: "kafka://k:9092/t", Grace: time.Second, Batch: 1, Group: "g", Mechanism: "SCRAM-SHA-512", Insecure: true}, constant, false,
			"--grace 1s --group g --kafka-mechanism SCRAM-SHA-512 --kafka-insecure"},
	}
	for _, tt := range tests {
		k := ConsumerPod(tt.c, tt.load, tt.wallClock)
		if k.URL != tt.c.URL || strings.Join(k.Args, " ") != tt.want {
			t.Errorf("%+v: %s %q, want %q", tt.c, k.URL, k.Args, tt.want)
		}
	}
}
