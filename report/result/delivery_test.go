package result

import "testing"

// TestProcessingTime checks which end-to-end figure stands for the
// collector's processing time: the record timestamp's unless it is too
// coarse for what it measures, then the read's.
func TestProcessingTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		d          Delivery
		wantAvg    float64
		wantToRead bool
		wantOK     bool
	}{
		{"slow collector: to the record", Delivery{TimestampType: "CreateTime", TimestampResolutionMs: 1,
			E2E: Summary{Count: 5, Avg: 42}, Consumed: Summary{Count: 5, Avg: 43}}, 42, false, true},
		{"sub-ms: to the read", Delivery{TimestampType: "CreateTime", TimestampResolutionMs: 1,
			E2E: Summary{Count: 5, Avg: 0.2}, Consumed: Summary{Count: 5, Avg: 0.66}}, 0.66, true, true},
		{"under ten steps: to the read", Delivery{TimestampType: "LogAppendTime", TimestampResolutionMs: 1,
			E2E: Summary{Count: 5, Avg: 9.5}, Consumed: Summary{Count: 5, Avg: 10.1}}, 10.1, true, true},
		{"older result from Kafka", Delivery{TimestampType: "CreateTime",
			E2E: Summary{Count: 5, Avg: 0.2}, Consumed: Summary{Count: 5, Avg: 0.66}}, 0.66, true, true},
		{"no timestamps (DMaaP)", Delivery{TimestampType: "none", Consumed: Summary{Count: 5, Avg: 3}}, 3, true, true},
		{"coarse but nothing read", Delivery{TimestampType: "CreateTime", TimestampResolutionMs: 1,
			E2E: Summary{Count: 5, Avg: 0.2}}, 0.2, false, true},
		{"nothing delivered", Delivery{TimestampType: "CreateTime", TimestampResolutionMs: 1}, 0, false, false},
	}
	for _, tt := range tests {
		s, toRead, ok := tt.d.ProcessingTime()
		if s.Avg != tt.wantAvg || toRead != tt.wantToRead || ok != tt.wantOK {
			t.Errorf("%s: avg %v to the read %v ok %v, want %v %v %v", tt.name, s.Avg, toRead, ok, tt.wantAvg, tt.wantToRead, tt.wantOK)
		}
	}
}
