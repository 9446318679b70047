package publish

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/shareddata"
)

// collectorMapping reads the collector's default stream mapping: domain →
// stream id from its properties (the application config adds
// "measurement"), stream id → topic from its DMaaP config.
func collectorMapping(t *testing.T) map[string]string {
	t.Helper()
	dir := filepath.Join(shareddata.Dir(t, "ves"), "collector-config")
	streams := map[string]string{}
	for _, f := range []string{"etc_collector.properties", "etc_ves_application_config.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			_, val, ok := strings.Cut(line, "collector.dmaap.streamid")
			if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			val = strings.TrimLeft(val, "=: ")
			for _, pair := range strings.Split(strings.TrimSpace(val), "|") {
				domain, stream, _ := strings.Cut(pair, "=")
				streams[domain] = stream
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "etc_ves-dmaap-config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]struct {
		Info struct {
			TopicURL string `json:"topic_url"`
		} `json:"dmaap_info"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	topics := map[string]string{}
	for domain, stream := range streams {
		c, ok := cfg[stream]
		if !ok {
			continue // a stream without a topic is not published
		}
		u := strings.TrimSuffix(c.Info.TopicURL, "/")
		topics[domain] = u[strings.LastIndex(u, "/")+1:]
	}
	return topics
}

func TestTopicsMatchCollectorConfig(t *testing.T) {
	t.Parallel()
	want := collectorMapping(t)
	if len(want) < 10 {
		t.Fatalf("read only %d domains from the collector's config: %v", len(want), want)
	}
	for domain, topic := range want {
		got := Topic(domain, "")
		if strings.HasPrefix(domain, "3GPP-") {
			got = Topic("stndDefined", domain)
		}
		if got != topic {
			t.Errorf("domain %s: topic %q, the collector's config says %q", domain, got, topic)
		}
	}
	for domain := range defaultTopics {
		if _, ok := want[domain]; !ok {
			t.Errorf("domain %s is routed here but not in the collector's config", domain)
		}
	}
	for _, tt := range []struct{ domain, ns, want string }{
		{"fault", "", "unauthenticated.SEC_FAULT_OUTPUT"},
		{"measurement", "", "unauthenticated.VES_MEASUREMENT_OUTPUT"},
		{"notification", "", ""},
		{"stndDefined", "3GPP-Heartbeat", "unauthenticated.SEC_3GPP_HEARTBEAT_OUTPUT"},
		{"stndDefined", "", ""},
	} {
		if got := Topic(tt.domain, tt.ns); got != tt.want {
			t.Errorf("Topic(%q, %q) = %q, want %q", tt.domain, tt.ns, got, tt.want)
		}
	}
}
