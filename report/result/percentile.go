package result

// Percentile is one of the percentiles a Summary carries: the one list the
// result fills (Summarize) and every rendering shows, so that a table, a
// comparison and the text summary name the same ones.
type Percentile struct {
	// Label is how renderings name it: "p50", "p99.9".
	Label string
	// Q is the percentile, 0 to 100.
	Q float64
	// Field is its figure in a Summary.
	Field func(*Summary) *float64
}

// Of is the percentile's figure in s.
func (p Percentile) Of(s Summary) float64 { return *p.Field(&s) }

// Percentiles lists the percentiles of a Summary in order: p50, p90, p95,
// p99 and p99.9.
func Percentiles() []Percentile {
	return []Percentile{
		{"p50", 50, func(s *Summary) *float64 { return &s.P50 }},
		{"p90", 90, func(s *Summary) *float64 { return &s.P90 }},
		{"p95", 95, func(s *Summary) *float64 { return &s.P95 }},
		{"p99", 99, func(s *Summary) *float64 { return &s.P99 }},
		{"p99.9", 99.9, func(s *Summary) *float64 { return &s.P999 }},
	}
}
