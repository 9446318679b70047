package result

import (
	"fmt"
	"time"
)

// ShardInfo says which part of a run split across generators a result
// holds: shard Index of Count sent the requests n ≡ Index (mod Count) of
// the run's one schedule. StartAt is the instant every shard started at,
// and StartOffsetMs how far this shard's clock start was from it (a shard
// whose offset exceeds its tolerance does not run at all).
// StartToleranceMs is that tolerance: merge refuses shards whose start
// instants lie further apart than it.
type ShardInfo struct {
	Index            int       `json:"index"`
	Count            int       `json:"count"`
	StartAt          time.Time `json:"start_at,omitzero"`
	StartOffsetMs    float64   `json:"start_offset_ms"`
	StartToleranceMs float64   `json:"start_tolerance_ms,omitempty"`
}

// IsShard reports whether r holds one part of a run split across several
// generators.
func (r *Result) IsShard() bool { return r.Shard != nil && r.Shard.Count > 1 }

// ShardName is " (shard I/N)" for a shard's result, else empty: what
// follows a result's name where a message is about one of several.
func (r *Result) ShardName() string {
	if !r.IsShard() {
		return ""
	}
	return fmt.Sprintf(" (shard %d/%d)", r.Shard.Index, r.Shard.Count)
}

// MergeInfo describes a merged result: which shards it holds and, when it
// was accepted without all of them, which are missing.
type MergeInfo struct {
	// Shards lists the merged shards' indices, in order; Count is how
	// many the run was split into (0 when the inputs were not shards).
	Shards []int `json:"shards,omitempty"`
	Count  int   `json:"count,omitempty"`
	// Inputs is how many results were merged.
	Inputs int `json:"inputs"`
	// Partial is true when shards were missing and --allow-partial
	// accepted the rest; Missing lists them.
	Partial bool  `json:"partial,omitempty"`
	Missing []int `json:"missing,omitempty"`
	// StartOffsetMaxMs is the largest start offset of any shard.
	StartOffsetMaxMs float64 `json:"start_offset_max_ms,omitempty"`
}
