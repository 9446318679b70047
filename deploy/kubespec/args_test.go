package kubespec

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/loadgen/output/outputs"
)

func TestRunFlagsArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    RunFlags
		// flags are the outputs' flags given on the command line.
		flags []string
		want  string
		err   string
	}{
		{"none", RunFlags{}, nil, "", ""},
		{"every switch", RunFlags{AllowErrors: true, NoPreflight: true, Quiet: true, Verbose: true, RawBody: true, AbortOnFail: []string{"p99<1s", "error_rate<5%"}}, nil,
			"--allow-errors --no-preflight --quiet --verbose --raw-body --abort-on-fail p99<1s --abort-on-fail error_rate<5%", ""},
		{"influx", RunFlags{}, []string{"--influx-url", "http://influx:8086/write?db=jmeter", "--influx-application", "ves"},
			"--influx-url http://influx:8086/write?db=jmeter --influx-application ves --influx-measurement jmeter", ""},
		{"influx percentiles", RunFlags{}, []string{"--influx-url", "http://influx:8086/write?db=jmeter", "--influx-percentiles", "99.9,50"}, "--influx-percentiles 99.9,50", ""},
		{"influx user", RunFlags{}, []string{"--influx-url", "http://u:p@influx:8086/write?db=j"}, "", "--influx-url: credentials in the URL"},
		{"influx password parameter", RunFlags{}, []string{"--influx-url", "http://influx:8086/write?db=j&p=secret"}, "", "--influx-url: credentials"},
		{"influx flag alone", RunFlags{}, []string{"--influx-measurement", "m"}, "", "--influx-measurement goes with --influx-url"},
	}
	for _, tt := range tests {
		if tt.flags != nil {
			tt.f.Outputs = outputs.New()
			fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
			tt.f.Outputs.Add(fs)
			if err := fs.Parse(tt.flags); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		}
		a, err := tt.f.Args()
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %q, %v; want an error with %q", tt.name, a, err, tt.err)
			}
		case err != nil || !strings.HasSuffix(strings.Join(a, " "), tt.want):
			t.Errorf("%s: %q, %v; want it to end with %q", tt.name, a, err, tt.want)
		case strings.Contains(strings.Join(a, " "), "secret"):
			t.Errorf("%s: %q carries a secret", tt.name, a)
		}
	}
}

func TestServeDashboard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr   string
		linger time.Duration
		err    string
	}{
		{kube.DashboardAddr(), 0, ""},
		{fmt.Sprintf(":%d", kube.DashboardPort), time.Minute, ""},
		{"127.0.0.1:0", 0, "--dashboard 127.0.0.1:0: each shard serves its page on " + kube.DashboardAddr()},
		{kube.DashboardAddr(), -time.Second, "--dashboard-linger -1s: want 0 or a positive duration"},
	}
	for _, tt := range tests {
		var s kube.Spec
		err := ServeDashboard(&s, tt.addr, tt.linger)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s %v: %v, want %q", tt.addr, tt.linger, err, tt.err)
		case tt.err == "" && (err != nil || !s.Dashboard || s.DashboardLinger != tt.linger):
			t.Errorf("%s %v: %v, spec dashboard %v linger %v", tt.addr, tt.linger, err, s.Dashboard, s.DashboardLinger)
		}
	}
}
