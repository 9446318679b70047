package main

import (
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/testserver/builtin"
)

// watchOptions are the flags that watch the target and publish vesload's
// own metrics during a run.
type watchOptions struct {
	targetPIDs    []int32
	targetProcs   []string
	targetMetrics string
	metricsUser   string
	metricsPass   string
	promURL       string
	promQueries   []string
	metricsAddr   string
	metricsLinger time.Duration
}

func addWatchFlags(fs *pflag.FlagSet, w *watchOptions) {
	fs.Int32SliceVar(&w.targetPIDs, "target-pid", nil, "sample this process's CPU and memory every second (repeatable)")
	fs.StringArrayVar(&w.targetProcs, "target-process", nil, "sample all processes with this name, summed (repeatable)")
	fs.StringVar(&w.targetMetrics, "target-metrics", "", "scrape the target's Prometheus endpoint every second, e.g. https://collector:8443/actuator/prometheus")
	fs.StringVar(&w.metricsUser, "target-metrics-user", "", "basic auth user for --target-metrics and --prom-url")
	fs.StringVar(&w.metricsPass, "target-metrics-password-file", "", "file holding that user's password (else $VESLOAD_METRICS_PASSWORD)")
	fs.StringVar(&w.promURL, "prom-url", "", "Prometheus server to evaluate --prom-query against every second")
	fs.StringArrayVar(&w.promQueries, "prom-query", nil, "NAME=PROMQL instant query recorded every second (repeatable); a query named cpu (in cores) or cpu_pct (in %) is the target's CPU, rss or memory its memory")
	cliflag.AddrVar(fs, &w.metricsAddr, "metrics-addr", "", "serve vesload's own Prometheus metrics at http://ADDR/metrics during the run")
	fs.DurationVar(&w.metricsLinger, "metrics-linger", 0, "keep serving metrics this long after the run, so the last scrape is not lost")
}

// sampleEmulator makes the built-in emulator, a process of its own whose
// pid the run knows, the target that is sampled (its CPU and memory, the
// seed table's "Max CPU %"), unless the flags asked for another sampler.
func sampleEmulator(t *sample.TargetOptions, emu *builtin.Emulator) {
	if len(t.PIDs) > 0 || len(t.Processes) > 0 || t.MetricsURL != "" || t.PromURL != "" {
		return
	}
	t.PIDs = []int32{emu.PID()}
}

// target is the flags as the target sampler's options: the password of
// the metrics endpoints comes from its file or $VESLOAD_METRICS_PASSWORD.
// Remote endpoints use the target's TLS settings (the session adds them);
// their credentials come from the URL and never reach the result.
func (w *watchOptions) target() (sample.TargetOptions, error) {
	opts := sample.HTTPOptions{User: w.metricsUser}
	if w.metricsPass != "" {
		pw, err := scenario.ReadSecretFile("--target-metrics-password-file", w.metricsPass)
		if err != nil {
			return sample.TargetOptions{}, usage.Wrap(err)
		}
		opts.Password = pw
	} else {
		opts.Password = os.Getenv("VESLOAD_METRICS_PASSWORD")
	}
	return sample.TargetOptions{PIDs: w.targetPIDs, Processes: w.targetProcs, MetricsURL: w.targetMetrics,
		PromURL: w.promURL, PromQueries: w.promQueries, HTTP: opts}, nil
}
