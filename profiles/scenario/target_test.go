package scenario

import "testing"

// TestCheckURLWords: each mistake in a target URL is named in one line;
// a URL written without its scheme is told how to write it.
func TestCheckURLWords(t *testing.T) {
	t.Parallel()
	tests := []struct{ url, want string }{
		{"https://collector:8443/eventListener/v7", ""},
		{"collector:8443/eventListener/v7", `"collector:8443/eventListener/v7": the scheme is missing: write https://collector:8443/eventListener/v7 (or http:// for a plain port)`},
		{"127.0.0.1:8080/eventListener/v7", `"127.0.0.1:8080/eventListener/v7": the scheme is missing: write https://127.0.0.1:8080/eventListener/v7 (or http:// for a plain port)`},
		{"u:pw@collector/x", `"u:xxxxx@collector/x": the scheme is missing: write https://u:xxxxx@collector/x (or http:// for a plain port)`},
		{"ftp://collector/x", `"ftp://collector/x": want an http:// or https:// URL`},
		{"http:///x", `"http:///x": no host`},
		{"http://collector:99999/x", `"http://collector:99999/x": port 99999 out of range (want 1 to 65535)`},
	}
	for _, tt := range tests {
		got := ""
		if err := CheckURL(tt.url); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}
