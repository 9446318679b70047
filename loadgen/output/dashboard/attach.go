package dashboard

import (
	"fmt"
	"slices"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// Attach adds s to cfg's observers so that it gets a snapshot every
// second: it sees each snapshot before checkpoint (the checkpoint file's
// observer, nil without one), which completes the snapshot in place, and
// checkpoint keeps its own period (cfg.CheckpointEvery) through
// EveryCheckpoint. It exists so that the live page and the checkpoint
// file share the engine's one snapshot stream without either changing
// the other's rhythm.
func (s *Server) Attach(cfg *engine.Config, checkpoint engine.Observer) {
	at := len(cfg.Observers)
	if checkpoint != nil {
		if i := slices.Index(cfg.Observers, checkpoint); i >= 0 {
			cfg.Observers[i] = &EveryCheckpoint{Observer: checkpoint, Every: cfg.CheckpointEvery}
			at = i
		}
	}
	cfg.Observers = slices.Insert(cfg.Observers, at, engine.Observer(s))
	cfg.CheckpointEvery = time.Second
}

// EveryCheckpoint passes on a checkpoint only every so often: the
// checkpoint file keeps its --checkpoint period while the engine
// snapshots every second for the dashboard.
type EveryCheckpoint struct {
	engine.Observer
	// Every is the period the wrapped observer gets checkpoints at.
	Every time.Duration
	next  time.Duration
}

// OutputName implements engine.OutputNamer with the wrapped observer's
// name.
func (e *EveryCheckpoint) OutputName() (name string, live bool) {
	if n, ok := e.Observer.(engine.OutputNamer); ok {
		return n.OutputName()
	}
	return fmt.Sprintf("%T", e.Observer), false
}

// Checkpoint passes r on once its time into the run reaches the next
// period; a snapshot the engine skipped delays it to the next second only.
func (e *EveryCheckpoint) Checkpoint(r *result.Result) {
	at := r.Ended.Sub(r.Started).Round(time.Second)
	if e.next == 0 {
		e.next = e.Every
	}
	if at < e.next {
		return
	}
	e.next = (at/e.Every + 1) * e.Every
	e.Observer.Checkpoint(r)
}
