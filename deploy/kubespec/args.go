package kubespec

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/loadgen/output/outputs"
)

// RunFlags are the run's settings that reach the pods as flags, not
// through the profile: what decides the exit code, what the shards
// print, and the outputs of the table (loadgen/output/outputs).
type RunFlags struct {
	AllowErrors, NoPreflight, KeepGoing, Quiet, Verbose, RawBody bool
	// AbortOnFail are the --abort-on-fail gates.
	AbortOnFail []string
	// Outputs are the command line's values of every output; each
	// renders its own arguments. Nil for none.
	Outputs *outputs.Set
}

// Args are the flags every shard runs with (kube.Spec.Args). They are
// written into the manifests, so an output's value holding a credential
// is refused (each output's KubeArgs).
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
	more, err := f.Outputs.KubeArgs()
	if err != nil {
		return nil, err
	}
	return append(a, more...), nil
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
