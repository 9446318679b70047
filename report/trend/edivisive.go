package trend

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aclements/go-moremath/stats"
)

// Detector finds change points in one series with E-Divisive means
// (Matteson and James 2014): the split of a segment that maximises the
// energy statistic Q is a candidate, and a permutation test decides
// whether it is significant. Segments are split one change at a time
// until the best candidate is not.
//
// The permutation test makes Alpha mean what it says: on a series of
// pure noise the first test is significant with probability at most
// Alpha, whatever the noise's distribution (p99s are long-tailed). A
// t-test on the best split would not: the split was chosen to look
// different.
type Detector struct {
	// Alpha is the significance level of each split (default 0.05).
	Alpha float64
	// Permutations is how many random reorderings each test draws
	// (default 199, so that p-values are multiples of 1/200).
	Permutations int
	// MinSize is the fewest runs a segment may have (default 3, the
	// fewest with which a segment's spread is estimated at all).
	MinSize int
	// Window bounds how many consecutive runs one search looks at, so
	// that a long history costs time linear in its length; windows
	// overlap by half and a change found in one bounds the next. 0 means
	// DefaultWindow.
	Window int
	// Seed makes the permutations, and so every p-value, repeatable.
	Seed uint64
	// Test decides whether a candidate is significant (default TTest).
	Test Test
	// Starts, when set, says at which indexes a change may start (true
	// at i: between value i−1 and i): runs of one build are repeats of
	// one thing, so a change can only start with a new build. Nil allows
	// every index.
	Starts []bool
}

// Test names the significance check of a candidate split.
type Test string

// The significance checks a Detector offers.
const (
	// TTest is Student's t-test between the two sides the energy
	// statistic picked, its p-value multiplied by the number of splits
	// searched (Bonferroni), so that the search for the most different
	// split does not make noise look significant. It decides with three
	// runs a side, as report/compare's Welch test does.
	TTest Test = "ttest"
	// Permutation is Matteson and James' permutation test of the energy
	// statistic: exact whatever the distribution, but a segment of n
	// runs can reach no p below about 1/C(n, MinSize), so that two
	// builds of three runs each can never differ at 0.05.
	Permutation Test = "permutation"
)

// Defaults of a Detector.
const (
	DefaultAlpha        = 0.05
	DefaultPermutations = 199
	DefaultMinSize      = 3
	DefaultWindow       = 100
	DefaultSeed         = 1
)

// Describe says how change points are found, for a reader.
func (d Detector) Describe() string {
	d = d.withDefaults()
	if d.Test == Permutation {
		return fmt.Sprintf("E-Divisive means with a permutation test (%d permutations, seed %d) at alpha %g", d.Permutations, d.Seed, d.Alpha)
	}
	return fmt.Sprintf("E-Divisive means with Student's t-test, Bonferroni-bounded over the splits searched, at alpha %g", d.Alpha)
}

// Point is one change point: the index of the first value after the
// change and the p-value of the permutation test that accepted it.
type Point struct {
	Index int
	P     float64
}

func (d Detector) withDefaults() Detector {
	if d.Alpha == 0 {
		d.Alpha = DefaultAlpha
	}
	if d.Permutations == 0 {
		d.Permutations = DefaultPermutations
	}
	if d.MinSize == 0 {
		d.MinSize = DefaultMinSize
	}
	if d.Test == "" {
		d.Test = TTest
	}
	if d.Window == 0 {
		d.Window = DefaultWindow
	}
	d.Window = max(d.Window, 2*d.MinSize)
	return d
}

// Detect returns the change points of x in index order. name seeds the
// permutations together with Seed, so that a metric gets the same
// p-values whichever other metrics are analysed with it.
//
// A series of positive values (latencies, rates, CPU, memory) is
// searched on its logarithms: run-to-run noise of such figures is
// multiplicative and skewed to the right (a run slowed by a neighbour),
// and on the log scale one slow run weighs as a factor, not as a
// distance that hides a real change. A series with a zero or a negative
// value (an error rate of 0) is searched as it is.
func (d Detector) Detect(name string, x []float64) []Point {
	d = d.withDefaults()
	x = logScale(x)
	h := fnv.New64a()
	h.Write([]byte(name))
	s := &search{d: d, rng: rand.New(rand.NewPCG(d.Seed, h.Sum64()))}
	var found []Point
	for start := 0; ; start += d.Window / 2 {
		end := min(start+d.Window, len(x))
		found = s.window(x, start, end, found)
		if end == len(x) {
			break
		}
	}
	slices.SortFunc(found, func(a, b Point) int { return a.Index - b.Index })
	return found
}

// logScale is x's logarithms when every value is positive, else x.
func logScale(x []float64) []float64 {
	for _, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return x
		}
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Log(v)
	}
	return out
}

// starts is the Starts of a segment beginning at from: whether a change
// may start at its index tau; nil allows every index.
func (s *search) starts(from int) []bool {
	if s.d.Starts == nil {
		return nil
	}
	return s.d.Starts[from:]
}

// search holds the scratch space of one series' detection.
type search struct {
	d    Detector
	rng  *rand.Rand
	perm []float64
	q    qScratch
}

// window splits x[start:end] hierarchically; the points already found
// inside it are fixed boundaries.
func (s *search) window(x []float64, start, end int, found []Point) []Point {
	bounds := []int{start, end}
	for _, p := range found {
		if p.Index > start && p.Index < end {
			bounds = append(bounds, p.Index)
		}
	}
	slices.Sort(bounds)
	for {
		best, at, end, splits := -1.0, -1, -1, 0
		for i := 0; i+1 < len(bounds); i++ {
			seg := x[bounds[i]:bounds[i+1]]
			q, tau, kappa, n := s.q.best(seg, s.d.MinSize, s.starts(bounds[i]))
			splits += n
			if tau > 0 && q > best {
				best, at, end = q, bounds[i]+tau, bounds[i]+kappa
			}
		}
		if at < 0 {
			return found
		}
		var p float64
		if s.d.Test == Permutation {
			p = s.test(x, bounds, best)
		} else {
			from := start
			for _, b := range bounds {
				if b < at {
					from = b
				}
			}
			p = math.Min(1, studentP(x[from:at], x[at:end])*float64(splits))
		}
		if p >= s.d.Alpha {
			return found
		}
		found = append(found, Point{Index: at, P: p})
		bounds = append(bounds, at)
		slices.Sort(bounds)
	}
}

// test is the permutation test of a candidate with statistic q: each
// segment is shuffled on its own and the best split of any segment is
// taken, as many times as Permutations; p is the share at least as large
// as q, counting q itself. It stops as soon as p cannot fall below
// Alpha.
func (s *search) test(x []float64, bounds []int, q float64) float64 {
	r := s.d.Permutations
	limit := s.d.Alpha * float64(r+1)
	tol := 1e-9 * math.Max(math.Abs(q), 1e-300)
	atLeast := 0
	for range r {
		most := -1.0
		for i := 0; i+1 < len(bounds); i++ {
			seg := x[bounds[i]:bounds[i+1]]
			if len(seg) < 2*s.d.MinSize {
				continue
			}
			s.perm = append(s.perm[:0], seg...)
			s.rng.Shuffle(len(s.perm), func(a, b int) { s.perm[a], s.perm[b] = s.perm[b], s.perm[a] })
			if v, tau, _, _ := s.q.best(s.perm, s.d.MinSize, s.starts(bounds[i])); tau > 0 && v > most {
				most = v
			}
		}
		if most >= q-tol {
			atLeast++
			if float64(atLeast+1) >= limit {
				return float64(atLeast+1) / float64(r+1)
			}
		}
	}
	return float64(atLeast+1) / float64(r+1)
}

// qScratch holds the column prefix sums of the distances of one segment.
type qScratch struct{ prefix []float64 }

// best is the largest energy statistic over the splits of z into X =
// z[:tau] and Y = z[tau:kappa], both at least m long and tau a start
// that starts allows (Matteson and James' Q with exponent 1), the tau
// and kappa that reach it, and how many splits it searched; tau is 0
// when z has no such split.
//
//	Q = tau(kappa-tau)/kappa · ( 2/(tau(kappa-tau)) Σ|X−Y|
//	                             − 2/(tau(tau−1)) Σ_{i<j}|Xi−Xj|
//	                             − 2/(|Y|(|Y|−1)) Σ_{i<j}|Yi−Yj| )
//
// All three sums are grown one value at a time from prefix sums of the
// distance matrix's columns, so that every split costs O(1) and a
// segment of n values O(n²).
func (s *qScratch) best(z []float64, m int, starts []bool) (float64, int, int, int) {
	n := len(z)
	if n < 2*m {
		return 0, 0, 0, 0
	}
	// prefix[j*(n+1)+i] = Σ_{i'<i} |z[i']−z[j]|, for i ≤ j.
	w := n + 1
	if cap(s.prefix) < n*w {
		s.prefix = make([]float64, n*w)
	}
	p := s.prefix[:n*w]
	for j := range n {
		row := p[j*w : j*w+j+1]
		row[0] = 0
		zj := z[j]
		for i := range j {
			row[i+1] = row[i] + math.Abs(z[i]-zj)
		}
	}
	bestQ, bestTau, bestKappa, searched := math.Inf(-1), 0, 0, 0
	within := 0.0 // Σ_{i<j<tau} |zi−zj|
	for tau := 1; tau <= n-m; tau++ {
		within += p[(tau-1)*w+tau-1]
		if tau < m || (starts != nil && !starts[tau]) {
			continue
		}
		searched += n - tau - m + 1
		var between, inY float64
		for kappa := tau; kappa < n; kappa++ {
			// Add z[kappa] to Y.
			col := p[kappa*w:]
			between += col[tau]
			inY += col[kappa] - col[tau]
			ny := kappa + 1 - tau
			if ny < m {
				continue
			}
			q := qOf(float64(tau), float64(ny), between, within, inY)
			if q > bestQ {
				bestQ, bestTau, bestKappa = q, tau, kappa+1
			}
		}
	}
	return bestQ, bestTau, bestKappa, searched
}

// studentP is the two-sided p-value of Student's two-sample t-test of x
// against y (at least two values in all). Sides that are each constant
// give 0 when they differ and 1 when they do not.
func studentP(x, y []float64) float64 {
	nx, ny := float64(len(x)), float64(len(y))
	mx, my := mean(x), mean(y)
	ss := 0.0
	for _, v := range x {
		ss += (v - mx) * (v - mx)
	}
	for _, v := range y {
		ss += (v - my) * (v - my)
	}
	df := nx + ny - 2
	if df < 1 {
		return 1
	}
	se := math.Sqrt(ss / df * (1/nx + 1/ny))
	if se == 0 || math.IsNaN(se) {
		if mx == my {
			return 1
		}
		return 0
	}
	t := math.Abs(mx-my) / se
	return 2 * (1 - stats.TDist{V: df}.CDF(t))
}

// qOf is Q from the sizes of X and Y and the three sums of distances.
func qOf(nx, ny, between, inX, inY float64) float64 {
	e := 2 * between / (nx * ny)
	if nx > 1 {
		e -= 2 * inX / (nx * (nx - 1))
	}
	if ny > 1 {
		e -= 2 * inY / (ny * (ny - 1))
	}
	return nx * ny / (nx + ny) * e
}
