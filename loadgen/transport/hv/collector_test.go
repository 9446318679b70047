package hv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// The collector's own sample response, from ONAP's documentation.
func TestParseONAPSampleMetrics(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(shareddata.Dir(t, "hv-ves"), "docs_services_ves-hv_metrics_sample_response.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCollectorMetrics("", body)
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasReceived || c.Received != 32000 || c.Sent != 20000 || c.Dropped["invalid"] != 12000 || c.HasDuplicates {
		t.Errorf("counters %+v", c)
	}
}

func TestReceiverView(t *testing.T) {
	before, err := ParseCollectorMetrics("", []byte(`hvves_messages_received_total 100
hvves_messages_sent_total 90
hvves_messages_dropped_cause_total{cause="invalid"} 10
hvves_messages_to_collector_travel_time_seconds_sum 1.0
hvves_messages_to_collector_travel_time_seconds_count 90
`))
	if err != nil {
		t.Fatal(err)
	}
	after, err := ParseCollectorMetrics("", []byte(`# TYPE hvves_messages_received_total counter
hvves_messages_received_total 1100
hvves_messages_sent_total 1080
hvves_messages_dropped_cause_total{cause="invalid"} 12
hvves_messages_dropped_cause_total{cause="routing"} 8
# TYPE hvves_messages_to_collector_travel_time_seconds summary
hvves_messages_to_collector_travel_time_seconds{quantile="0.5"} 0.0015
hvves_messages_to_collector_travel_time_seconds{quantile="0.99"} 0.012
hvves_messages_to_collector_travel_time_seconds_sum 3.0
hvves_messages_to_collector_travel_time_seconds_count 1090
hvves_messages_to_collector_travel_time_seconds_max 0.25
hvves_emulator_duplicate_event_ids_total 3
`))
	if err != nil {
		t.Fatal(err)
	}
	rc := ReceiverView(before, after, 1005, "metrics:http://x")
	if rc.Received != 1000 || rc.Accepted != 990 || rc.Lost != 5 || rc.Dropped["invalid"] != 2 || rc.Dropped["routing"] != 8 {
		t.Errorf("view %+v", rc)
	}
	if rc.Duplicates != nil { // "before" had no duplicate counter, "after" has 3: counted from zero
		if *rc.Duplicates != 3 {
			t.Errorf("duplicates %d", *rc.Duplicates)
		}
	} else {
		t.Error("duplicates not read")
	}
	if rc.TravelAvgMs != 2 || rc.TravelMaxMs != 250 || rc.TravelP50Ms != 1.5 || rc.TravelP99Ms != 12 {
		t.Errorf("travel avg %v p50 %v p99 %v max %v, want 2, 1.5, 12 and 250 ms", rc.TravelAvgMs, rc.TravelP50Ms, rc.TravelP99Ms, rc.TravelMaxMs)
	}
	// A receiver that counted more than this run wrote (the other shards
	// of a run against one collector) lost nothing and says how many more.
	if rc := ReceiverView(before, after, 600, "metrics:http://x"); rc.Lost != 0 || rc.Extra != 400 {
		t.Errorf("received 1000 of 600 written: lost %d extra %d, want 0 and 400", rc.Lost, rc.Extra)
	}
	if _, err := ParseCollectorMetrics("", []byte("hvves_messages_received_total{")); err == nil {
		t.Error("a broken exposition parsed")
	}
}

func FuzzParseCollectorMetrics(f *testing.F) {
	f.Add([]byte("hvves_messages_received_total 3\nhvves_messages_dropped_cause_total{cause=\"invalid\"} 1\n"))
	f.Add([]byte("# TYPE hvves_messages_to_collector_travel_time_seconds histogram\nhvves_messages_to_collector_travel_time_seconds_bucket{le=\"+Inf\"} 2\nhvves_messages_to_collector_travel_time_seconds_sum 1\nhvves_messages_to_collector_travel_time_seconds_count 2\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := ParseCollectorMetrics("", body)
		if err == nil && c.Dropped == nil {
			t.Fatal("parsed without a dropped table")
		}
	})
}

// A Micrometer exposition as the collector serves it: TYPE lines, a
// summary with quantiles, _max beside it, trailing commas in label sets.
func TestParseMicrometerCollectorMetrics(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "..", "sample", "testdata", "hvves.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCollectorMetrics("", body)
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasReceived || c.Received != 12000 || c.Sent != 11990 || c.Dropped["invalid"] != 6 ||
		c.Dropped["route_not_found"] != 4 || c.TravelSum != 35.97 || c.TravelCount != 11990 || c.TravelMax != 0.25 {
		t.Errorf("counters %+v", c)
	}
}
