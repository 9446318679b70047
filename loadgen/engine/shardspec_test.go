package engine

import (
	"strings"
	"testing"
	"time"
)

func TestParseShard(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == JobIndexEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		spec, idx string
		want      Shard
		wantErr   string
	}{
		{"2/4", "", Shard{Index: 2, Count: 4}, ""},
		{"auto/4", "3", Shard{Index: 3, Count: 4}, ""},
		{"0/1", "", Shard{Index: 0, Count: 1}, ""},
		{"4/4", "", Shard{}, "4/4: want an index from 0 to 3"},
		{"-1/4", "", Shard{}, "-1/4: want an index"},
		{"2", "", Shard{}, `"2": want I/N or auto/N`},
		{"0/0", "", Shard{}, "want I/N or auto/N"},
		{"0/99999999", "", Shard{}, "from 1 to 10000"},
		{"auto/4", "", Shard{}, "auto/4: $JOB_COMPLETION_INDEX is not set"},
		{"auto/4", "x", Shard{}, `auto/4 ($JOB_COMPLETION_INDEX="x"): want an index from 0 to 3`},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.spec, env(tt.idx))
		if tt.wantErr != "" {
			// The error begins with the spec, for the caller to prefix.
			if err == nil || !strings.HasPrefix(strings.TrimPrefix(err.Error(), `"`), tt.spec) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q (index %q): %v, want %q", tt.spec, tt.idx, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q (index %q): %+v, %v; want %+v", tt.spec, tt.idx, got, err, tt.want)
		}
	}
}

func TestParseStartAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr string
	}{
		{"+30s", now.Add(30 * time.Second), ""},
		{"+0s", now, ""},
		{"2026-12-01T10:00:05Z", now.Add(5 * time.Second), ""},
		{"2026-12-01T10:00:05.25+01:00", now.Add(5*time.Second + 250*time.Millisecond - time.Hour), ""},
		{"+-5s", time.Time{}, `"+-5s": want +D`},
		{"tomorrow", time.Time{}, `"tomorrow": want an RFC 3339 instant`},
	}
	for _, tt := range tests {
		got, err := ParseStartAt(tt.in, now)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%q: %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("%q: %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}
