package session

import (
	"fmt"

	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
)

// A section is one contributor's part of the result: the writer (write)
// adds the sections in one order, each seeing what the ones before it
// added, and then the verdict judges them all at once. add returns the
// gates its contributor decided itself (the abort guard's, the start
// rule's), which the verdict counts as decided.
type section struct {
	name string
	add  func(res *result.Result) ([]result.Threshold, error)
}

// streamReport is what the streams said when Run closed them.
type streamReport struct {
	warnings []string
	lost     []result.OutputLoss
}

// sections are the contributors to the result after the engine, in the
// order of docs/ARCHITECTURE.md ("The result's one writer"):
//
//  1. streams: what the JTL and the HdrHistogram log lost, and why;
//  2. receiver: the command's Complete (HV-VES: the collector's counters,
//     the receiver's figures), which reads the engine's figures;
//  3. delivery: the follower's section, once its grace is over;
//  4. checkpoint: a checkpoint that could not be written, told (it adds
//     nothing);
//  5. meta: the tool, the run's configuration, the set-up's notes;
//  6. terminal: the terminal, when it hung up;
//  7. live page: what the live page's browsers missed;
//  8. outputs: each output of the table, what reached it and what it lost;
//  9. abort guard: the gate that stopped the run, if one did;
//  10. target exited: the emulator's end, which makes the run not
//     interrupted when no signal came;
//  11. start rule: the start-of-run rule, if it stopped the run.
//
// The verdict comes after every one of them (judge).
func (s *Session) sections() []section {
	return []section{
		{"streams", func(res *result.Result) ([]result.Threshold, error) {
			res.Warnings = append(res.Warnings, s.streams.warnings...)
			res.Outputs = append(res.Outputs, s.streams.lost...)
			return nil, nil
		}},
		{"receiver", func(res *result.Result) ([]result.Threshold, error) {
			if s.o.Complete != nil {
				s.o.Complete(res)
			}
			return nil, nil
		}},
		{"delivery", func(res *result.Result) ([]result.Threshold, error) { return nil, s.finishFollow(res) }},
		{"checkpoint", func(*result.Result) ([]result.Threshold, error) {
			if s.ckpt != nil {
				if err := s.ckpt.Err(); err != nil {
					s.prog.note(fmt.Sprintf("a checkpoint could not be written: %v", err))
				}
			}
			return nil, nil
		}},
		{"meta", func(res *result.Result) ([]result.Threshold, error) { s.meta(res); return nil, nil }},
		{"terminal", func(res *result.Result) ([]result.Threshold, error) {
			if loss, ok := s.terminalLoss(res); ok {
				res.Outputs = append(res.Outputs, loss)
			}
			return nil, nil
		}},
		{"live page", func(res *result.Result) ([]result.Threshold, error) { s.dash.Complete(res); return nil, nil }},
		{"outputs", func(res *result.Result) ([]result.Threshold, error) {
			for _, out := range s.writes {
				out.Finish(res, output.FinalWait) // what reached it, what it lost, waited for briefly
			}
			return nil, nil
		}},
		{"abort guard", func(res *result.Result) ([]result.Threshold, error) {
			return s.guard.Complete(res, s.signalled.Load()), nil
		}},
		{"target exited", func(res *result.Result) ([]result.Threshold, error) {
			if res.TargetExited = s.emulatorExited(res); res.TargetExited != "" && !s.signalled.Load() {
				res.Interrupted = false // no signal: the emulator's end stopped it
			}
			return nil, nil
		}},
		{"start rule", func(res *result.Result) ([]result.Threshold, error) {
			return s.start.Complete(res, s.signalled.Load()), nil
		}},
	}
}

// write is the result's one writer after the engine: it adds every
// section to the engine's result in order, then judges the whole once
// (judge). It returns the baseline gates' sentences for the summary.
func (s *Session) write(res *result.Result) (string, error) {
	var decided []result.Threshold
	for _, sec := range s.sections() {
		d, err := sec.add(res)
		if err != nil {
			return "", err
		}
		decided = append(decided, d...)
	}
	return s.judge(res, decided)
}
