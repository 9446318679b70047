package result

import (
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// sampleHistograms builds a deterministic pair of distributions in
// microseconds: service time around 2–5 ms with a slow tail, and latency
// from the due time that adds a small dispatch delay to every request and
// a 25 ms wait for a connection to one request in a hundred.
func sampleHistograms(t testing.TB) (lat, svc *hdrhistogram.Histogram) {
	t.Helper()
	lat, svc = NewHistogram(), NewHistogram()
	for i := int64(0); i < 10000; i++ {
		s := 2000 + (i*7919)%3000
		if i%500 == 0 {
			s = 40000 + (i/500)*2500
		}
		l := s + (i%7)*50
		if i%100 == 0 {
			l += 25000
		}
		if err := svc.RecordValue(s); err != nil {
			t.Fatal(err)
		}
		if err := lat.RecordValue(l); err != nil {
			t.Fatal(err)
		}
	}
	return lat, svc
}
