package main

import (
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/influx"
	"github.com/vesload/vesload/report/result"
)

// influxOptions are the flags that send the run to InfluxDB as JMeter's
// InfluxDB Backend Listener does.
type influxOptions struct {
	url         string
	application string
	measurement string
	percentiles []float64
}

func addInfluxFlags(fs *pflag.FlagSet, o *influxOptions) {
	fs.StringVar(&o.url, "influx-url", "", "write per-second figures to InfluxDB 1.x as JMeter's InfluxDB Backend Listener does, e.g. http://influx:8086/write?db=jmeter (password: user:pass@ or $VESLOAD_INFLUX_PASSWORD)")
	fs.StringVar(&o.application, "influx-application", "vesload", "the application tag of the InfluxDB points")
	fs.StringVar(&o.measurement, "influx-measurement", "jmeter", "the InfluxDB measurement of the per-second points")
	fs.Float64SliceVar(&o.percentiles, "influx-percentiles", []float64{99, 95, 90}, "percentiles written as pct<P> fields")
}

// check refuses a bad --influx-url or percentile before anything starts.
func (o *influxOptions) check() error {
	if o.url == "" {
		return nil
	}
	if err := influx.Check(influx.Config{URL: o.url, Percentiles: o.percentiles}); err != nil {
		return usagef("--influx-url: %v", err)
	}
	return nil
}

// influxHook feeds the InfluxDB writer from the run (influx.Observer).
type influxHook struct{ influx.Observer }

// startInflux starts the writer when --influx-url is set; label is the
// transaction tag of the run's requests, shard the shard tag of the
// points ("" for a whole run).
func startInflux(o *influxOptions, label, shard string, note func(string)) (*influxHook, error) {
	if o.url == "" {
		return nil, nil
	}
	w, err := influx.New(influx.Config{
		URL: o.url, Password: os.Getenv("VESLOAD_INFLUX_PASSWORD"),
		Application: o.application, Shard: shard, Measurement: o.measurement, Label: label,
		Percentiles: o.percentiles,
	})
	if err != nil {
		return nil, usagef("--influx-url: %v", err)
	}
	note("writing per-second figures to InfluxDB at " + redact.URL(o.url))
	return &influxHook{influx.Observer{W: w}}, nil
}

// close stops the writer of a run that ended without a result.
func (h *influxHook) close() {
	if h != nil {
		h.W.Close(0, time.Second)
	}
}

// finish records in the result what reached InfluxDB.
func (h *influxHook) finish(res *result.Result) {
	if h != nil {
		h.Finish(res, 5*time.Second)
	}
}
