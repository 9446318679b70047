package rest

import (
	"strings"
	"testing"
)

// TestNewTarget: the REST transport accepts only an http or https URL
// with a host, so a run aimed at anything else stops before it starts.
func TestNewTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url      string
		errMatch string
	}{
		{url: "http://127.0.0.1:8080/eventListener/v7"},
		{url: "https://collector:8443/eventListener/v7"},
		{url: "ftp://collector/x", errMatch: "scheme must be http or https"},
		{url: "http:///eventListener/v7", errMatch: "no host"},
		{url: "tcp://127.0.0.1:6061", errMatch: "scheme must be http or https"},
	}
	for _, tt := range tests {
		tr, err := New(Options{URL: tt.url, Kinds: []Kind{{URL: tt.url}}, Pool: 1})
		if (err == nil) != (tt.errMatch == "") || (err != nil && !strings.Contains(err.Error(), tt.errMatch)) {
			t.Errorf("%s: error %v, want %q", tt.url, err, tt.errMatch)
		}
		if tr != nil {
			tr.Close()
		}
	}
}

// TestNewRefusesAKindOffTheTarget: every kind of a mix goes over the one
// pool of connections to the target, so a kind on another host or scheme
// is refused with its name.
func TestNewRefusesAKindOffTheTarget(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:1/eventListener/v7"
	tests := []struct {
		kinds    []Kind
		errMatch string
	}{
		{kinds: nil},
		{kinds: []Kind{{Name: "a", URL: base}, {Name: "b", URL: base + "/eventBatch"}}},
		{kinds: []Kind{{Name: "a", URL: base}, {Name: "b", URL: "http://127.0.0.2:1/x"}}, errMatch: `request "b": http://127.0.0.2:1 is not the target`},
		{kinds: []Kind{{URL: "https://127.0.0.1:1/x"}}, errMatch: `request "1": https://127.0.0.1:1 is not the target`},
	}
	for _, tt := range tests {
		tr, err := New(Options{URL: base, Kinds: tt.kinds, Pool: 1})
		if (err == nil) != (tt.errMatch == "") || (err != nil && !strings.Contains(err.Error(), tt.errMatch)) {
			t.Errorf("%+v: error %v, want %q", tt.kinds, err, tt.errMatch)
		}
		if tr != nil {
			tr.Close()
		}
	}
}
