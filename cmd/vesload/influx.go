package main

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen/output/influx"
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

// config is the flags as the writer's configuration (influx.Config),
// the password from the URL or $VESLOAD_INFLUX_PASSWORD; empty without
// --influx-url. The session adds the transaction and shard tags.
func (o *influxOptions) config() influx.Config {
	if o.url == "" {
		return influx.Config{}
	}
	return influx.Config{URL: o.url, Password: os.Getenv("VESLOAD_INFLUX_PASSWORD"),
		Application: o.application, Measurement: o.measurement, Percentiles: o.percentiles}
}
