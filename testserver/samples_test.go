package testserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// TestONAPSamples posts ONAP's own sample events (the collector's test
// resources and the CSIT suite's) and expects the answers the real
// collector gives them.
func TestONAPSamples(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(shareddata.Dir(t, "ves"), "samples")
	s := startServer(t, Options{})
	tests := []struct {
		file   string
		path   string
		status int
		msgID  string
	}{
		{"ves7_valid_30_1_1_event.json", "/eventListener/v7", 202, ""},
		{"measurement7x.json", "/eventListener/v7", 202, ""},
		{"ves_stdnDefined_valid.json", "/eventListener/v7", 202, ""},
		{"csit_ves7_valid.json", "/eventListener/v7", 202, ""},
		{"csit_ves7_pnf_registration_event.json", "/eventListener/v7", 202, ""},
		{"csit_ves_stdnDefined_3GPP-Heartbeat.json", "/eventListener/v7", 202, ""},
		{"notification_FileReadyEvent.json", "/eventListener/v7", 202, ""},
		{"ves7_batch_valid.json", "/eventListener/v7/eventBatch", 202, ""},
		{"ves7_batch_with_stndDefined_valid.json", "/eventListener/v7/eventBatch", 202, ""},
		{"measurement5x.json", "/eventListener/v5", 202, ""},
		{"csit_ves_volte_single_fault_event.json", "/eventListener/v5", 202, ""},
		{"csit_ves_volte_fault_eventlist_batch.json", "/eventListener/v5/eventBatch", 202, ""},
		// CSIT expects 400: an extra "dummy" header property, which the v7
		// schema forbids.
		{"csit_ves7_parameter_out_of_schema.json", "/eventListener/v7", 400, "ServiceException SVC0002"},
		// Its header's version "4.0.2" and vesEventListenerVersion "7.0.2"
		// are not in the v7 schema's enums, so the collector refuses it too.
		{"heartbeat_test1.json", "/eventListener/v7", 400, "ServiceException SVC0002"},
		// A v7 event on the v5 path fails the 28.4.1 header rules.
		{"csit_ves7_valid.json", "/eventListener/v5", 400, "ServiceException SVC0002"},
		// A batch on the single-event path has no "event".
		{"ves7_batch_valid.json", "/eventListener/v7", 400, "ServiceException SVC0002"},
	}
	for _, tc := range tests {
		t.Run(tc.file+tc.path, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatalf("read sample: %v", err)
			}
			r := post(t, s, tc.path, string(body))
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (%s)", r.status, tc.status, r.body)
			}
			if tc.msgID != "" && messageID(r.body) != tc.msgID {
				t.Errorf("message %q, want %q", messageID(r.body), tc.msgID)
			}
		})
	}
}
