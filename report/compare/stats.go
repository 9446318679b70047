package compare

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// summarize computes one side's centre and spread.
func summarize(v []float64, center Center) Side {
	s := Side{Values: slices.Clone(v), Min: slices.Min(v), Max: slices.Max(v)}
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) > 1 {
		ss := 0.0
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		s.StdDev = math.Sqrt(ss / float64(len(v)-1))
	}
	s.Center = mean
	if center == Median {
		s.Center = median(v)
	}
	return s
}

func median(v []float64) float64 {
	sorted := slices.Sorted(slices.Values(v))
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// pValue tests whether a and b (at least two values each) come from the
// same distribution. Identical sides give 1 without running a test (both
// tests are undefined on them). Sides that are each constant but differ
// give 0: Welch's statistic is infinite there, the difference is exact.
func pValue(a, b []float64, test Test, alpha float64) float64 {
	if constant(a) && constant(b) {
		if a[0] == b[0] {
			return 1
		}
		if test == Welch {
			return 0
		}
	}
	th := benchmath.Thresholds{CompareAlpha: alpha}
	// NewSample sorts in place: give it copies.
	sa := benchmath.NewSample(slices.Clone(a), &th)
	sb := benchmath.NewSample(slices.Clone(b), &th)
	var cmp benchmath.Comparison
	if test == UTest {
		cmp = benchmath.AssumeNothing.Compare(sa, sb)
	} else {
		// AssumeNormal compares with Welch's two-sample t-test.
		cmp = benchmath.AssumeNormal.Compare(sa, sb)
	}
	if math.IsNaN(cmp.P) {
		return 1
	}
	return math.Min(math.Max(cmp.P, 0), 1)
}

func constant(v []float64) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// minUTestP is the smallest two-sided p-value the Mann-Whitney U test can
// give for samples of n1 and n2 values: the two samples completely
// separated is one ordering out of C(n1+n2, n1), counted in both tails.
func minUTestP(n1, n2 int) float64 {
	return math.Min(1, 2/binomial(n1+n2, n1))
}

// uTestRunsNeeded is the fewest runs a side with which the U test can
// reach p < alpha.
func uTestRunsNeeded(alpha float64) int {
	n := 1
	for minUTestP(n, n) >= alpha && n < 1000 {
		n++
	}
	return n
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
