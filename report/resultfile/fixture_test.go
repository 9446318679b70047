package resultfile

import (
	"testing"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// The results the files are tested with (package reporttest).
func sampleResult(t testing.TB) *result.Result                { return reporttest.Sample(t) }
func emptyResult() *result.Result                             { return reporttest.Empty() }
func shard(t testing.TB, run string, i, n int) *result.Result { return reporttest.Shard(t, run, i, n) }
