package hv

// mine lists the run-wide numbers of the producers this generator runs:
// all of them, or those p ≡ Shard.Index (mod Shard.Count) of a shard.
// They keep their run-wide phase, sourceName and eventIds, so the shards
// together send exactly what one generator would (docs/ARCHITECTURE.md,
// "Many generators").
func (c Config) mine() []int {
	var ps []int
	for p := range c.Producers {
		if c.Shard.Whole() || p%c.Shard.Count == c.Shard.Index {
			ps = append(ps, p)
		}
	}
	return ps
}
