package dryrun

import (
	"testing"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
)

func TestAPIVersion(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		url   string
		ver   string
		batch bool
	}{
		{"http://h:1/eventListener/v7", "v7", false},
		{"http://h:1/eventListener/v5/eventBatch", "v5", true},
		{"http://h:1/eventListener/v3/?x=1", "v3", false},
		{"http://h:1/other", "v7", false},
		{"http://h:1/other/eventBatch", "v7", true},
	} {
		if v, b := APIVersion(tt.url); v != tt.ver || b != tt.batch {
			t.Errorf("APIVersion(%q) = %s, %v; want %s, %v", tt.url, v, b, tt.ver, tt.batch)
		}
	}
}

// TestHeadersHideCredentials: the headers shown are the transport's, and
// no credential is shown.
func TestHeadersHideCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  rest.Options
		req  rest.Kind
		want []transport.Header
	}{
		{"plain, keep-alive", rest.Options{UserAgent: "ua", KeepAlive: true}, rest.Kind{},
			[]transport.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "User-Agent", Value: "ua"}}},
		{"basic auth and a token, no keep-alive", rest.Options{User: "u", Password: "p",
			Headers: []transport.Header{{Name: "Authorization", Value: "Bearer t0ken"}}}, rest.Kind{Headers: []transport.Header{{Name: "X-Kind", Value: "a"}}},
			[]transport.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "Authorization", Value: "Basic " + Redacted},
				{Name: "Authorization", Value: Redacted}, {Name: "X-Kind", Value: "a"}, {Name: "Connection", Value: "close"}}},
	}
	for _, tt := range tests {
		got := Headers(&tt.cfg, tt.req)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: header %d is %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}
