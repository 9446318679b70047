package trend

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// example is one series of testdata/otava.txt.
type example struct {
	name   string
	labels []string
	values []float64
	expect []int
}

func readExamples(t testing.TB) []example {
	f, err := os.Open("testdata/otava.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []example
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case fields[0] == "series":
			out = append(out, example{name: fields[1]})
		case fields[0] == "expect":
			for _, f := range fields[1:] {
				i, err := strconv.Atoi(f)
				if err != nil {
					t.Fatal(err)
				}
				out[len(out)-1].expect = append(out[len(out)-1].expect, i)
			}
		default:
			v, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				t.Fatal(err)
			}
			e := &out[len(out)-1]
			e.labels, e.values = append(e.labels, fields[0]), append(e.values, v)
		}
	}
	return out
}

func indexes(ps []Point) []int {
	out := []int{}
	for _, p := range ps {
		out = append(out, p.Index)
	}
	return out
}

// TestOtavaExamples: Apache Otava's published examples give the change
// points Otava reports, under several seeds.
func TestOtavaExamples(t *testing.T) {
	t.Parallel()
	exs := readExamples(t)
	if len(exs) != 3 {
		t.Fatalf("%d examples, want 3", len(exs))
	}
	for _, test := range []Test{TTest, Permutation} {
		for _, ex := range exs {
			for seed := uint64(1); seed <= 5; seed++ {
				got := Detector{Seed: seed, Test: test}.Detect(ex.name, ex.values)
				if want := append([]int{}, ex.expect...); !slices.Equal(indexes(got), want) {
					t.Errorf("%s, %s, seed %d: change points %v, want %v", ex.name, test, seed, got, want)
				}
			}
		}
	}
}

// TestOtavaCSVChange: metric2 of Otava's CSV sample changes at its 7th
// commit (aaa6) by about −12.9 %.
func TestOtavaCSVChange(t *testing.T) {
	t.Parallel()
	for _, ex := range readExamples(t) {
		if ex.name != "csv.metric2" {
			continue
		}
		ps := Detector{}.Detect(ex.name, ex.values)
		if len(ps) != 1 || ex.labels[ps[0].Index] != "aaa6" {
			t.Fatalf("change points %v, want one at aaa6", ps)
		}
		segs := segments(ex.values, ps)
		pct := (segs[1].Mean - segs[0].Mean) / segs[0].Mean * 100
		if math.Abs(pct-(-12.9)) > 0.05 {
			t.Errorf("change %.2f %%, want about -12.9 %%", pct)
		}
	}
}

// TestDeterministic: a seed gives the same p-values; another seed may
// not, yet finds the same clear change.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	// The seed drives the permutation test (Student's t-test draws
	// none), on a change small enough that its p-value is not the least
	// the permutations can give, so that the draws show in it.
	x := noisySeries(rand.New(rand.NewPCG(11, 11)), 40, 20, 0.03, 0.03, false)
	a := Detector{Seed: 3, Test: Permutation}.Detect("p99", x)
	b := Detector{Seed: 3, Test: Permutation}.Detect("p99", x)
	if !slices.Equal(a, b) || len(a) == 0 {
		t.Errorf("seed 3 twice: %v and %v", a, b)
	}
	c := Detector{Seed: 4, Test: Permutation}.Detect("p99", x)
	if !slices.Equal(indexes(c), indexes(a)) || slices.Equal(c, a) {
		t.Errorf("seed 4: %v, seed 3: %v; want the same change with another p-value", c, a)
	}
}

// noisySeries is n values around 100 with relative noise sd, stepping up
// by step (a share) at index at; longTailed draws the noise from a
// log-normal, like per-run p99s.
func noisySeries(rng *rand.Rand, n, at int, step, sd float64, longTailed bool) []float64 {
	x := make([]float64, n)
	for i := range x {
		level := 100.0
		if i >= at {
			level *= 1 + step
		}
		e := rng.NormFloat64() * sd
		if longTailed {
			e = math.Exp(rng.NormFloat64()*0.6) - math.Exp(0.18) // mean 0, skewed right
			e *= sd
		}
		x[i] = level * (1 + e)
	}
	return x
}

// errorRates measures the detector on series of 30 runs: the share of
// pure-noise series (normal and long-tailed) with any change point, and
// the share of series with a 10 % step in 3 % noise at run 15 in which
// a change is found within one run of it.
func errorRates(d Detector, n int) (falseNormal, falseLong, power float64) {
	var fn, fl, hit int
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(i), 42))
		if len(d.Detect("p99", noisySeries(rng, 30, 30, 0, 0.03, false))) > 0 {
			fn++
		}
		if len(d.Detect("p99", noisySeries(rng, 30, 30, 0, 0.03, true))) > 0 {
			fl++
		}
		for _, p := range d.Detect("p99", noisySeries(rng, 30, 15, 0.10, 0.03, false)) {
			if p.Index >= 14 && p.Index <= 16 {
				hit++
				break
			}
		}
	}
	f := float64(n)
	return float64(fn) / f, float64(fl) / f, float64(hit) / f
}

// TestErrorRates: with the default test, false alarms at most alpha and
// power at least 95 %, on 200 series (BenchmarkErrorRates measures 1,000
// with either test; the permutation test's false alarms are alpha less
// its resolution, 4.5 %, and 200 series cannot tell that from 5 %).
func TestErrorRates(t *testing.T) {
	t.Parallel()
	fn, fl, pw := errorRates(Detector{}, 200)
	t.Logf("200 series of 30 runs: false alarms %.1f %% (normal), %.1f %% (long-tailed); 10 %% step in 3 %% noise found %.1f %%", 100*fn, 100*fl, 100*pw)
	if fn > 0.05 || fl > 0.05 || pw < 0.95 {
		t.Errorf("false alarms %.3f, %.3f (want ≤ 0.05); power %.3f (want ≥ 0.95)", fn, fl, pw)
	}
}

// BenchmarkErrorRates measures the shares of TestErrorRates on 1,000
// series each and prints them.
func BenchmarkErrorRates(b *testing.B) {
	for _, test := range []Test{TTest, Permutation} {
		b.Run(string(test), func(b *testing.B) {
			for b.Loop() {
				fn, fl, pw := errorRates(Detector{Test: test}, 1000)
				b.ReportMetric(100*fn, "%false-normal")
				b.ReportMetric(100*fl, "%false-longtail")
				b.ReportMetric(100*pw, "%power")
			}
		})
	}
}

// TestStarts: a change is placed only where Starts allows; without it,
// the same series splits inside what would be a build.
func TestStarts(t *testing.T) {
	t.Parallel()
	// Build A: 10, 10, 10, 30, 30, 30; build B: 30, 30, 30, 30.
	x := []float64{10, 10.2, 9.9, 30, 30.1, 29.8, 30.2, 29.9, 30, 30.1}
	if got := indexes(Detector{}.Detect("p99", x)); !slices.Equal(got, []int{3}) {
		t.Errorf("free: change points %v, want [3]", got)
	}
	starts := make([]bool, len(x))
	starts[6] = true
	if got := indexes(Detector{Starts: starts}.Detect("p99", x)); len(got) > 0 && !slices.Equal(got, []int{6}) {
		t.Errorf("with builds: change points %v, want none or [6]", got)
	}
}

// TestWindows: a history longer than the window is searched window by
// window, and changes far apart are all found where they were put.
func TestWindows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 21))
	x := make([]float64, 300)
	for i := range x {
		level := 100.0
		switch {
		case i >= 250:
			level = 90
		case i >= 150:
			level = 130
		case i >= 60:
			level = 115
		}
		x[i] = level * (1 + 0.03*rng.NormFloat64())
	}
	got := indexes(Detector{Window: 80}.Detect("p99", x))
	for _, want := range []int{60, 150, 250} {
		if !slices.ContainsFunc(got, func(i int) bool { return i >= want-1 && i <= want+1 }) {
			t.Errorf("change points %v: none at %d", got, want)
		}
	}
	if len(got) > 4 {
		t.Errorf("change points %v: more than one false one", got)
	}
}

// TestLogScale: a regressed build whose runs spread as widely as their
// level is high (a few of them slower still) does not hide its start and
// its fix: on the log scale the spread is a factor, as the change is.
func TestLogScale(t *testing.T) {
	t.Parallel()
	x := []float64{5, 5.1, 4.9, 5, 5.2, 4.8, 100, 210, 300, 103, 180, 107, 5, 5.2, 4.9}
	if got := indexes(Detector{}.Detect("avg", x)); !slices.Equal(got, []int{6, 12}) {
		t.Errorf("change points %v, want [6 12]", got)
	}
}
