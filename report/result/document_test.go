package result

import (
	"errors"
	"maps"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TestTallyDocumentRoundTrip: what a Tally writes into a result document
// reads back as the same Tally, so that a merge counts as the engine did.
func TestTallyDocumentRoundTrip(t *testing.T) {
	src := tallyOf(outcomes(), 3)
	var r Result
	if err := src.Document(&r, new(HistogramEncoder)); err != nil {
		t.Fatal(err)
	}
	if r.Requests != src.Requests() || r.Latency.Count != 6 || r.Histograms.Latency == "" {
		t.Fatalf("document: requests %+v, latency %+v", r.Requests, r.Latency)
	}
	back, err := TallyOf(&r)
	if err != nil {
		t.Fatal(err)
	}
	if back.Requests() != src.Requests() || !maps.Equal(back.Classes, src.Classes) ||
		!maps.Equal(back.MessageIDs, src.MessageIDs) || back.BytesSent != src.BytesSent || back.BytesReceived != src.BytesReceived {
		t.Errorf("read back %+v, want %+v", back, src)
	}
	if !back.Latency.Equals(src.Latency) || !back.Service.Equals(src.Service) {
		t.Error("distributions changed on the way through the document")
	}
	if err := back.AccountingError(); err != nil {
		t.Error(err)
	}
}

// TestTallyOfEmpty: a document of a run that recorded nothing has no
// histograms, and neither has its Tally; written back it still has an
// error map.
func TestTallyOfEmpty(t *testing.T) {
	back, err := TallyOf(&Result{})
	if err != nil || back.Latency != nil || back.Service != nil {
		t.Fatalf("TallyOf(empty) = %+v, %v", back, err)
	}
	var r Result
	if err := back.Document(&r, new(HistogramEncoder)); err != nil || r.Errors == nil || r.Histograms.Latency != "" {
		t.Errorf("Document(empty) = %+v, %v", r, err)
	}
}

// TestReadHistogram covers what a document from elsewhere may carry.
func TestReadHistogram(t *testing.T) {
	encode := func(h *hdrhistogram.Histogram) string {
		s, err := EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	other := hdrhistogram.New(1, 60_000_000, 2) // another geometry, values within ours
	other.RecordValues(1500, 10)
	wide := hdrhistogram.New(1, 100*HistogramHighestUs, 3) // values beyond 10 minutes
	wide.RecordValue(20 * HistogramHighestUs)
	for _, tc := range []struct {
		name    string
		enc     string
		count   int64
		want    int64 // values in the histogram read back (-1: nil)
		wantErr string
	}{
		{"none", "", 0, -1, ""},
		{"standard", encode(func() *hdrhistogram.Histogram { h := NewHistogram(); h.RecordValue(7); return h }()), 1, 1, ""},
		{"other geometry", encode(other), 10, 10, ""},
		{"summary without histogram", "", 10, 0, "has 10 latency values but no latency histogram"},
		{"garbage", "garbage", 1, 0, "histograms.latency: decode histogram"},
		{"out of range", encode(wide), 1, 0, "1 latency values lie outside 1 µs–10 min"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ReadHistogram(tc.enc, Summary{Count: tc.count}, "latency")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if tc.name == "summary without histogram" && !errors.Is(err, ErrMissingHistogram) {
					t.Errorf("%v is not ErrMissingHistogram", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want < 0 && h != nil:
				t.Errorf("got a histogram of %d values, want none", h.TotalCount())
			case tc.want >= 0 && (h == nil || h.TotalCount() != tc.want):
				t.Errorf("got %v, want %d values", h, tc.want)
			case h != nil && (h.HighestTrackableValue() != HistogramHighestUs || h.SignificantFigures() != HistogramSigFigs):
				t.Errorf("geometry %d/%d, want the standard one", h.HighestTrackableValue(), h.SignificantFigures())
			}
		})
	}
}
