package rest

import (
	"strings"
	"testing"
)

// Explain names the causes a user mends from the command line, and
// nothing for a failure one request cannot explain.
func TestExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, class, id string
		want           string // "" for no cause
	}{
		{"http://h:8080", "http_405", "", `the listener path is missing? the target answered 405 to "/"`},
		{"http://h:8080/", "http_404", "", "-url http://h:8080/eventListener/v7"},
		{"http://h:8080/eventListener/v9", "http_404", "", `no listener on "/eventListener/v9"`},
		{"http://h:8080/eventListener/v7", "http_401", "POL2000", "the collector refused the credentials"},
		{"http://h:8080/eventListener/v7", "http_403", "", "the collector refused the credentials"},
		{"http://h:8443/eventListener/v7", "http_400", "", "if h:8443 speaks TLS, use https://"},
		{"http://h:8443/eventListener/v7", "http_400", "SVC0002", ""},
		{"https://h:8443/eventListener/v7", "http_400", "", ""},
		{"http://h:8443/eventListener/v7", "conn_reset", "", "h:8443 may speak TLS: use https://"},
		{"http://h:8443/eventListener/v7", "bad_response", "", "may speak TLS"},
		{"https://h:8443/eventListener/v7", "conn_reset", "", ""},
		{"https://h:8443/eventListener/v7", "tls", "", "TLS handshake with h:8443 failed"},
		{"http://h:8080/eventListener/v7", "http_503", "", ""},
		{"http://h:8080/eventListener/v7", "timeout", "", ""},
	}
	for _, tt := range tests {
		tr, err := New(Options{URL: tt.url, Pool: 1, Timeout: 1, Kinds: []Kind{{URL: tt.url}}})
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Explain(tt.class, tt.id)
		tr.Close()
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s %s %s: Explain = %q, want %q", tt.url, tt.class, tt.id, got, tt.want)
		}
	}
}
