package kubespec

import (
	"strings"
	"testing"
	"time"
)

func TestPullPolicy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ image, want string }{
		{"vesload:1.0", "IfNotPresent"},
		{"vesload", "IfNotPresent"},
		{"onap/vesload:1.0", "IfNotPresent"},
		{"registry.example/vesload:1.0", ""},
		{"localhost:5000/vesload:1.0", ""},
		{"localhost/vesload:1.0", ""},
		{"nexus3.onap.org:10001/vesload:1.0", ""},
	} {
		if got := PullPolicy(tt.image); got != tt.want {
			t.Errorf("PullPolicy(%q) = %q, want %q", tt.image, got, tt.want)
		}
	}
}

// TestBuildHV: an HV-VES run's producers go into the pods' profile and
// its other settings into hv's flags; what a pod cannot honour is
// refused with the flag named.
func TestBuildHV(t *testing.T) {
	t.Parallel()
	h := HV{Addr: "hv:6061", Producers: 6, Messages: 100, Size: 8192, Interval: 10 * time.Millisecond, Domain: "perf3gpp",
		DialTimeout: time.Second, WriteTimeout: 2 * time.Second, Settle: 3 * time.Second, Insecure: true,
		TargetMetrics: "http://hv:6060/monitoring/prometheus", Thresholds: []string{"hv.lost==0", "hv.lost==0"}}
	o := Options{Shards: 3, Image: "vesload:1", RunID: "hv1", CertSecret: "hv-client", CertFormat: "pem"}
	s, err := BuildHV(h, o)
	if err != nil {
		t.Fatal(err)
	}
	p := string(s.Profile)
	for _, want := range []string{"protocol: hv-ves", "count: 6", "messages: 100", "interval: 10ms", "size: 8192"} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %q:\n%s", want, p)
		}
	}
	if strings.Count(p, "hv.lost==0") != 1 {
		t.Errorf("thresholds not once:\n%s", p)
	}
	args := strings.Join(s.Args, " ")
	want := "--addr hv:6061 --domain perf3gpp --dial-timeout 1s --write-timeout 2s --settle 3s --insecure --cert /etc/vesload-tls/tls.crt --key /etc/vesload-tls/tls.key --target-metrics http://hv:6060/monitoring/prometheus"
	if args != want || !s.HV || s.PullPolicy != "IfNotPresent" || s.Span != time.Second || s.Timeout != 5*time.Second {
		t.Errorf("args %q (want %q), hv %v, pull %q, span %v, timeout %v", args, want, s.HV, s.PullPolicy, s.Span, s.Timeout)
	}
	for _, tt := range []struct {
		edit func(*HV, *Options)
		want string
	}{
		{func(h *HV, _ *Options) { h.Addr = "" }, "--addr: the pods need"},
		{func(_ *HV, o *Options) { o.Shards = 7 }, "--shards 7: more than the 6 producers"},
		{func(_ *HV, o *Options) { o.Probe = true }, "--probe"},
		{func(_ *HV, o *Options) { o.PasswordSecret = "s" }, "--password-secret: HV-VES has no basic auth"},
		{func(h *HV, _ *Options) { h.TargetMetrics = "http://u:p@hv:6060/m" }, "--target-metrics: credentials"},
		{func(h *HV, _ *Options) { h.CACert = "/nonexistent" }, "--cacert"},
		{func(h *HV, _ *Options) { h.TargetMetrics = "x" }, `--target-metrics "x": want an http://`},
		{func(_ *HV, o *Options) { o.CertFormat = "der" }, "--cert-secret-format der"},
	} {
		h2, o2 := h, o
		tt.edit(&h2, &o2)
		if _, err := BuildHV(h2, o2); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}
