package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// JobIndexEnv is the variable Kubernetes sets in every pod of an Indexed
// Job to the pod's completion index; the shard spec auto/N reads it.
const JobIndexEnv = "JOB_COMPLETION_INDEX"

// MaxShards bounds a shard spec's N: more generators than this is a typo.
const MaxShards = 10000

// ParseShard reads a shard spec, "I/N", or "auto/N" with I from
// $JOB_COMPLETION_INDEX (getenv reads it), as a run's shard option gives
// it. Errors begin with the spec, so that the caller can prefix the
// option's name.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	idx, count, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 || n > MaxShards {
		return Shard{}, fmt.Errorf("%q: want I/N or auto/N with N a whole number from 1 to %d", s, MaxShards)
	}
	from := s
	if idx == "auto" {
		idx = getenv(JobIndexEnv)
		if idx == "" {
			return Shard{}, fmt.Errorf("%s: $%s is not set (Kubernetes sets it in the pods of an Indexed Job); give the index as I/%d", s, JobIndexEnv, n)
		}
		from = fmt.Sprintf("%s ($%s=%q)", s, JobIndexEnv, idx)
	}
	i, err := strconv.Atoi(idx)
	if err != nil || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%s: want an index from 0 to %d", from, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// ParseStartAt reads a start instant as the shards are given it: RFC 3339,
// or "+D", a duration from now. Errors begin with the value, quoted.
func ParseStartAt(s string, now time.Time) (time.Time, error) {
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return time.Time{}, fmt.Errorf("%q: want +D with D a duration such as 30s", s)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want an RFC 3339 instant such as 2026-12-01T10:00:00Z, or +D such as +30s", s)
	}
	return t, nil
}
