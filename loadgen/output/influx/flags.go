package influx

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/output"
)

// PasswordEnv holds the InfluxDB password when the URL has none, so that
// it stays out of process listings.
const PasswordEnv = "VESLOAD_INFLUX_PASSWORD"

// Entry is InfluxDB's line in the table of outputs
// (loadgen/output/outputs).
func Entry() output.Entry {
	return output.Entry{
		Flag: "influx-url",
		Doc:  "`--influx-url`: per-second figures to InfluxDB 1.x as JMeter's InfluxDB Backend Listener writes them",
		New:  func() output.Flags { return &Flags{} },
	}
}

// Flags are the command line's InfluxDB values (output.Flags).
type Flags struct {
	url         string
	application string
	measurement string
	percentiles []float64
	fs          *pflag.FlagSet
}

var _ output.Flags = (*Flags)(nil)

// Add implements output.Flags.
func (f *Flags) Add(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.url, "influx-url", "", "write per-second figures to InfluxDB 1.x as JMeter's InfluxDB Backend Listener does, e.g. http://influx:8086/write?db=jmeter (password: user:pass@ or $"+PasswordEnv+")")
	fs.StringVar(&f.application, "influx-application", "vesload", "the application tag of the InfluxDB points")
	fs.StringVar(&f.measurement, "influx-measurement", "jmeter", "the InfluxDB measurement of the per-second points")
	fs.Float64SliceVar(&f.percentiles, "influx-percentiles", []float64{99, 95, 90}, "percentiles written as pct<P> fields")
}

// Enabled implements output.Flags: --influx-url was given.
func (f *Flags) Enabled() bool { return f.url != "" }

// Check implements output.Flags: a bad --influx-url or percentile.
func (f *Flags) Check() error {
	if f.url == "" {
		return nil
	}
	if err := Check(Config{URL: f.url, Percentiles: f.percentiles}); err != nil {
		return fmt.Errorf("--influx-url: %w", err)
	}
	return nil
}

// changed reports whether flag name was given.
func (f *Flags) changed(name string) bool { return f.fs != nil && f.fs.Changed(name) }

// KubeArgs implements output.Flags. A URL holding a credential is
// refused: it would be written into the manifests.
func (f *Flags) KubeArgs() ([]string, error) {
	if f.url == "" {
		for _, name := range []string{"influx-application", "influx-measurement", "influx-percentiles"} {
			if f.changed(name) {
				return nil, fmt.Errorf("--%s goes with --influx-url", name)
			}
		}
		return nil, nil
	}
	if u, err := url.Parse(f.url); err != nil || u.User != nil || u.Query().Has("p") {
		return nil, errors.New("--influx-url: credentials in the URL would be written into the manifests: not available on Kubernetes yet")
	}
	a := []string{"--influx-url", f.url, "--influx-application", f.application, "--influx-measurement", f.measurement}
	if f.changed("influx-percentiles") {
		p := make([]string, len(f.percentiles))
		for i, v := range f.percentiles {
			p[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		a = append(a, "--influx-percentiles", strings.Join(p, ","))
	}
	return a, nil
}

// Start implements output.Flags: the writer, its points tagged with the
// run's label as their transaction and, for one shard of several, the
// shard's index as the PodMonitor's shard label does. The password
// comes from the URL or $VESLOAD_INFLUX_PASSWORD.
func (f *Flags) Start(r output.Run) (output.Output, error) {
	c := Config{URL: f.url, Password: os.Getenv(PasswordEnv), Application: f.application,
		Measurement: f.measurement, Percentiles: f.percentiles, Label: r.Label, Shard: r.Shard}
	w, err := New(c)
	if err != nil {
		return nil, fmt.Errorf("--influx-url: %w", err)
	}
	r.Note("writing per-second figures to InfluxDB at " + redact.URL(c.URL))
	return &Observer{W: w}, nil
}

// Close implements output.Output: a run that ended without a result
// stops the writer, waiting a second for what is queued.
func (o *Observer) Close() { o.W.Close(0, time.Second) }
