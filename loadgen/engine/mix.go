package engine

import "fmt"

// Request is one kind of request in a weighted mix: its own body and
// share. Where it goes (its path, its headers) is the transport's kind of
// the same index, so that the engine stays free of any protocol.
type Request struct {
	// Name labels the request in the per-request breakdown.
	Name string
	Body Body
	// Weight is the request's relative share of the mix (at least 1).
	Weight int
}

// maxMix bounds the number of request kinds, so that a kind fits a byte
// on the hot path.
const maxMix = 64

// maxPick bounds the selection table of a weighted mix.
const maxPick = 10000

// Kinds returns the request kinds of cfg: its Mix, or the single request
// of its Body. Their indexes are the transport's kinds.
func Kinds(cfg *Config) []Request {
	if len(cfg.Mix) == 0 {
		return []Request{{Body: cfg.Body, Weight: 1}}
	}
	return cfg.Mix
}

// mixRequests returns the request kinds of cfg (Kinds), checked.
func mixRequests(cfg *Config) ([]Request, error) {
	if len(cfg.Mix) == 0 {
		return Kinds(cfg), nil
	}
	if len(cfg.Mix) > maxMix {
		return nil, fmt.Errorf("request mix: %d kinds, at most %d", len(cfg.Mix), maxMix)
	}
	seen := map[string]bool{}
	total := 0
	for i, r := range cfg.Mix {
		switch {
		case r.Body == nil:
			return nil, fmt.Errorf("request %q: no body", r.Name)
		case r.Weight < 1:
			return nil, fmt.Errorf("request %q: weight %d must be at least 1", r.Name, r.Weight)
		case r.Name == "" || seen[r.Name]:
			return nil, fmt.Errorf("request %d: name %q must be set and unique", i+1, r.Name)
		}
		seen[r.Name] = true
		total += r.Weight
	}
	if total > maxPick {
		return nil, fmt.Errorf("request mix: weights add up to %d, at most %d", total, maxPick)
	}
	return cfg.Mix, nil
}

// pickTable spreads the kinds over one cycle of sum(weights) slots by
// smooth weighted round robin, so request seq is of kind
// table[seq % len(table)]: exact shares over every cycle, interleaved
// rather than in blocks, and no random numbers on the hot path.
func pickTable(reqs []Request) []uint8 {
	total := 0
	for _, r := range reqs {
		total += r.Weight
	}
	current := make([]int, len(reqs))
	table := make([]uint8, 0, total)
	for range total {
		best := 0
		for i, r := range reqs {
			current[i] += r.Weight
			if current[i] > current[best] {
				best = i
			}
		}
		current[best] -= total
		table = append(table, uint8(best))
	}
	return table
}

// MixOrder returns the kind (an index into reqs) of each request of one
// cycle of a weighted mix, as the engine picks them: request seq is of
// kind order[seq % len(order)]. A dry run shows with it what would be sent.
func MixOrder(reqs []Request) []int {
	table := pickTable(reqs)
	order := make([]int, len(table))
	for i, k := range table {
		order[i] = int(k)
	}
	return order
}
