package scenario

import (
	"errors"
	"fmt"

	"github.com/vesload/vesload/loadgen/engine"
)

// ErrEmptyShard is a shard that gets no request of the load: fewer
// requests than shards.
var ErrEmptyShard = errors.New("this shard gets no request")

// Shard makes the plan shard sh's (docs/ARCHITECTURE.md, "Many
// generators"): its part of the open schedule (and its rate in the
// result's configuration) or of the closed-model ramp, started at start
// (nil: at once). A whole shard keeps the load as it is.
func (p *Plan) Shard(sh engine.Shard, start *engine.StartGate) error {
	cfg := &p.Config
	cfg.Start = start
	if sh.Whole() {
		return nil
	}
	switch m := cfg.Load.(type) {
	case *engine.Schedule:
		v, err := m.Shard(sh)
		if err != nil {
			return err
		}
		if v.Total() == 0 {
			return fmt.Errorf("%s: %w of the %s (fewer requests than shards)", sh, ErrEmptyShard, p.RunConfig.Shape)
		}
		cfg.Load, p.RunConfig.RPS = v, v.MeanRate()
	case *engine.Closed:
		v, err := m.Shard(sh)
		if err != nil {
			return err
		}
		cfg.Load = v
	}
	return nil
}
