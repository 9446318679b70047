package summary

import (
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// The results the summary is tested on (package reporttest).
func sampleResult(t testing.TB) *result.Result { return reporttest.Sample(t) }
func hvResult(t testing.TB) *result.Result     { return reporttest.HV(t) }

func sampleHistograms(t testing.TB) (lat, svc *hdrhistogram.Histogram) {
	return reporttest.Histograms(t)
}
