package kubespec

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/deploy/kube"
)

// RunFlags are the run's settings that reach the pods as flags, not
// through the profile: what decides the exit code, what the shards
// print, and the InfluxDB output.
type RunFlags struct {
	AllowErrors, NoPreflight, KeepGoing, Quiet, Verbose, RawBody bool
	// AbortOnFail are the --abort-on-fail gates.
	AbortOnFail []string
	// InfluxURL, when set, sends each shard's seconds to InfluxDB with
	// InfluxApplication and InfluxMeasurement; InfluxPercentiles is nil
	// for the default ones.
	InfluxURL, InfluxApplication, InfluxMeasurement string
	InfluxPercentiles                               []float64
}

// Args are the flags every shard runs with (kube.Spec.Args). They are
// written into the manifests, so an InfluxDB URL holding a credential is
// refused.
func (f RunFlags) Args() ([]string, error) {
	var a []string
	for _, b := range []struct {
		on   bool
		flag string
	}{{f.AllowErrors, "--allow-errors"}, {f.NoPreflight, "--no-preflight"}, {f.KeepGoing, "--keep-going"}, {f.Quiet, "--quiet"}, {f.Verbose, "--verbose"}, {f.RawBody, "--raw-body"}} {
		if b.on {
			a = append(a, b.flag)
		}
	}
	for _, g := range f.AbortOnFail {
		a = append(a, "--abort-on-fail", g)
	}
	if f.InfluxURL == "" {
		return a, nil
	}
	if u, err := url.Parse(f.InfluxURL); err != nil || u.User != nil || u.Query().Has("p") {
		return nil, errors.New("--influx-url: credentials in the URL would be written into the manifests: not available on Kubernetes yet")
	}
	a = append(a, "--influx-url", f.InfluxURL, "--influx-application", f.InfluxApplication, "--influx-measurement", f.InfluxMeasurement)
	if f.InfluxPercentiles != nil {
		p := make([]string, len(f.InfluxPercentiles))
		for i, v := range f.InfluxPercentiles {
			p[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		a = append(a, "--influx-percentiles", strings.Join(p, ","))
	}
	return a, nil
}

// ServeDashboard has each shard of s serve its live page on the pod's
// fixed port (DashboardAddr; addr is what the run asked for, which may
// only name that port) and keep it for linger after its run.
func ServeDashboard(s *kube.Spec, addr string, linger time.Duration) error {
	if addr != kube.DashboardAddr() && addr != fmt.Sprintf(":%d", kube.DashboardPort) {
		return fmt.Errorf("--dashboard %s: each shard serves its page on %s in its pod: give --dashboard alone", addr, kube.DashboardAddr())
	}
	if linger < 0 {
		return fmt.Errorf("--dashboard-linger %v: want 0 or a positive duration", linger)
	}
	s.Dashboard, s.DashboardLinger = true, linger
	return nil
}
