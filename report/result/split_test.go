package result

import (
	"maps"
	"testing"
	"time"
)

// A second counted by AddSplit and completed by JoinSplit is the Tally
// Add counts: the same counts, classes, messageIds, split and
// distributions, whatever the mix of outcomes.
func TestAddSplitJoinsToAdd(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		in   []Outcome
	}{
		{"none", nil},
		{"ok only", []Outcome{{Class: OutcomeOK, Latency: ms, Service: ms, BytesSent: 9}, {Class: OutcomeOK, Latency: 3 * ms}}},
		{"mixed", []Outcome{
			{Class: OutcomeOK, Latency: ms, Service: ms, BytesSent: 9, BytesReceived: 4},
			{Class: "http_503", MessageID: "SVC2000", Latency: 40 * ms, Service: 39 * ms},
			{Class: "http_503", Latency: 41 * ms},
			{Class: "http_400", MessageID: "SVC2000", Latency: 2 * ms},
			{Class: ClassTimeout, Latency: 5 * time.Second},
			{Class: ClassPoolExhausted},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want, got := NewSecondTally(), NewSecondTally()
			for _, o := range tc.in {
				want.Add(o)
				got.AddSplit(o)
			}
			got.JoinSplit()
			if got.Requests() != want.Requests() || got.BytesSent != want.BytesSent || got.BytesReceived != want.BytesReceived ||
				!maps.Equal(got.Classes, want.Classes) || !maps.Equal(got.MessageIDs, want.MessageIDs) || !maps.Equal(got.Failures, want.Failures) {
				t.Fatalf("joined %+v %v %v %v, want %+v %v %v %v", got.Requests(), got.Classes, got.MessageIDs, got.Failures,
					want.Requests(), want.Classes, want.MessageIDs, want.Failures)
			}
			for _, h := range []struct {
				name      string
				got, want interface{ TotalCount() int64 }
				equal     bool
			}{
				{"latency", got.Latency, want.Latency, got.Latency.Equals(want.Latency)},
				{"service", got.Service, want.Service, got.Service.Equals(want.Service)},
				{"ok latency", got.OKLatency, want.OKLatency, got.OKLatency.Equals(want.OKLatency)},
				{"error latency", got.ErrorLatency, want.ErrorLatency, got.ErrorLatency.Equals(want.ErrorLatency)},
			} {
				if !h.equal {
					t.Errorf("%s: %d values, want %d", h.name, h.got.TotalCount(), h.want.TotalCount())
				}
			}
		})
	}
}
