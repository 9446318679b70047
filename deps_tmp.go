package main

import (
	_ "github.com/HdrHistogram/hdrhistogram-go"
	_ "github.com/goccy/go-yaml"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/prometheus/client_golang/api"
	_ "github.com/prometheus/client_golang/api/prometheus/v1"
	_ "github.com/prometheus/common/expfmt"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/shirou/gopsutil/v4/process"
	_ "github.com/spf13/pflag"
	_ "github.com/valyala/fasthttp"
	_ "golang.org/x/perf/benchmath"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/vg/vgsvg"
	_ "gonum.org/v1/plot/plotter"
)

func main() {}
