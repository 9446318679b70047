package report

import (
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// The results the renderings are tested on (package reporttest).
func sampleHistograms(t testing.TB) (lat, svc *hdrhistogram.Histogram) {
	return reporttest.Histograms(t)
}
func sampleResult(t testing.TB) *result.Result { return reporttest.Sample(t) }
func emptyResult() *result.Result              { return reporttest.Empty() }
func hvResult(t testing.TB) *result.Result     { return reporttest.HV(t) }
func generator(t testing.TB, offset time.Duration, scale int64) *result.Result {
	return reporttest.Generator(t, offset, scale)
}
func shard(t testing.TB, run string, i, n int) *result.Result { return reporttest.Shard(t, run, i, n) }
func withDelivery(t testing.TB, r *result.Result, n, scale int64, tsType string) *result.Result {
	return reporttest.WithDelivery(t, r, n, scale, tsType)
}
