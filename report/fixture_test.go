package report

import (
	"testing"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// The results the renderings are tested on (package reporttest).
func sampleResult(t testing.TB) *result.Result { return reporttest.Sample(t) }
func emptyResult() *result.Result              { return reporttest.Empty() }
func hvResult(t testing.TB) *result.Result     { return reporttest.HV(t) }
func withDelivery(t testing.TB, r *result.Result, n, scale int64, tsType string) *result.Result {
	return reporttest.WithDelivery(t, r, n, scale, tsType)
}
