package trend

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/vesload/vesload/report/result"
)

// build is one build of a synthetic history: its name and the p99 of
// each of its runs (the other latency figures follow it).
type build struct {
	name string
	p99  []float64
}

// history makes the results of builds in order, each run labelled with
// its build and started an hour after the one before, and their names.
func history(builds ...build) ([]*result.Result, []string) {
	var rs []*result.Result
	var names []string
	start := time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)
	for _, b := range builds {
		for _, p99 := range b.p99 {
			rs = append(rs, run(start.Add(time.Duration(len(rs))*time.Hour), b.name, p99))
			names = append(names, fmt.Sprintf("runs/%s-%d.json", b.name, len(names)+1))
		}
	}
	return rs, names
}

// run is one synthetic result whose latency figures scale with p99.
func run(started time.Time, buildName string, p99 float64) *result.Result {
	return &result.Result{
		Schema:    result.Schema,
		Config:    result.RunConfig{URL: "http://127.0.0.1:8080/eventListener/v7", Method: "POST", RPS: 100, DurationS: 30, Event: "fault", Labels: map[string]string{"build": buildName}},
		Started:   started,
		Ended:     started.Add(30 * time.Second),
		DurationS: 30,
		Requests:  result.Requests{Scheduled: 3000, Sent: 3000, OK: 3000},
		Errors:    map[string]int64{},
		RPS:       result.Rate{Target: 100, Achieved: 100},
		Latency:   result.Summary{Count: 3000, Min: p99 / 10, Avg: p99 / 4, P50: p99 / 5, P90: p99 / 2, P95: p99 / 1.5, P99: p99, P999: p99 * 1.5, Max: p99 * 2},
	}
}

// steady is n p99s around level with 2 % noise, from seed.
func steady(seed uint64, n int, level float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 9))
	out := make([]float64, n)
	for i := range out {
		out[i] = level * (1 + 0.02*rng.NormFloat64())
	}
	return out
}
