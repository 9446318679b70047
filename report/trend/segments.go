package trend

// Segment is a run of values between two change points, with its mean.
type Segment struct {
	// Start and End bound the segment: values[Start:End].
	Start int     `json:"start"`
	End   int     `json:"end"`
	Mean  float64 `json:"mean"`
}

// segments cuts x at the change points ps (in index order).
func segments(x []float64, ps []Point) []Segment {
	var out []Segment
	start := 0
	for i := 0; i <= len(ps); i++ {
		end := len(x)
		if i < len(ps) {
			end = ps[i].Index
		}
		out = append(out, Segment{Start: start, End: end, Mean: mean(x[start:end])})
		start = end
	}
	return out
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
