package session

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

// The result's one writer adds the sections in the documented order
// (docs/ARCHITECTURE.md, "The result's one writer").
func TestSectionsInOrder(t *testing.T) {
	t.Parallel()
	want := []string{"streams", "receiver", "delivery", "checkpoint", "meta", "terminal", "live page",
		"outputs", "abort guard", "target exited", "start rule"}
	var got []string
	for _, sec := range (&Session{}).sections() {
		got = append(got, sec.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("sections %q, want %q", got, want)
	}
}

// Every section is in the result before the verdict judges it, each sees
// those before it, and none comes after the verdict: a section alone that
// breaks a rule or loses part of a record decides the exit code.
func TestVerdictSeesEverySection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		set  func(s *Session)
		code int
	}{
		{"nothing added", func(*Session) {}, verdict.ExitOK},
		{"streams: the JTL lost rows", func(s *Session) {
			s.streams = streamReport{warnings: []string{"--jtl r.jtl: 12 rows dropped"}, lost: []result.OutputLoss{{Name: "--jtl r.jtl", Rows: 12}}}
		}, verdict.ExitIncomplete},
		{"receiver: HV-VES received nothing", func(s *Session) {
			s.o.Complete = func(res *result.Result) {
				res.HV = &result.HV{Sent: result.HVCounts{Scheduled: 100, Written: 100}, Receiver: &result.HVReceiver{Source: "emulator"}}
			}
		}, verdict.ExitFailed},
		{"outputs: a store lost batches", func(s *Session) {
			s.writes = []output.Output{&fakeOutput{loss: &result.OutputLoss{Name: "--fake-url", Batches: 2}}}
		}, verdict.ExitIncomplete},
		{"target exited", func(s *Session) {
			s.emulatorExit.Store(&exit{at: time.Now(), reason: "exit status 1"})
		}, verdict.ExitIncomplete},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var stderr, stdout bytes.Buffer
			s := &Session{o: Options{Stderr: &stderr, Quiet: true}, plan: &scenario.Plan{},
				prog: newProgress(&stderr, true, time.Second), outputs: context.Background()}
			c.set(s)
			// Watchers of the order: the receiver's Complete runs after the
			// streams and before the meta; an output after the meta and
			// the terminal; neither after the verdict.
			inner := s.o.Complete
			var seen []string
			s.o.Complete = func(res *result.Result) {
				if res.Thresholds != nil || res.Tool.Name != "" || len(res.Outputs) != len(s.streams.lost) {
					t.Errorf("the receiver's section saw judged %v, meta %q, outputs %+v: want the streams' alone", res.Thresholds != nil, res.Tool.Name, res.Outputs)
				}
				seen = append(seen, "receiver")
				if inner != nil {
					inner(res)
				}
			}
			s.HangUp(func() int64 { return 3 })
			s.writes = append(s.writes, &fakeOutput{finish: func(res *result.Result) {
				terminal := slices.ContainsFunc(res.Outputs, func(l result.OutputLoss) bool { return l.Name == "terminal" })
				if res.Thresholds != nil || res.Tool.Name != "vesload" || !terminal {
					t.Errorf("an output's section saw judged %v, meta %q, terminal %v: want the meta and the terminal, no verdict", res.Thresholds != nil, res.Tool.Name, terminal)
				}
				seen = append(seen, "outputs")
			}})
			res := restRun(10, 100, 10)
			code, err := s.Finish(res, &stdout)
			if err != nil || code != c.code {
				t.Fatalf("exit %d err %v, want %d\n%s%s", code, err, c.code, stdout.String(), stderr.String())
			}
			if !slices.Equal(seen, []string{"receiver", "outputs"}) {
				t.Errorf("sections seen %q, want the receiver's then the outputs'", seen)
			}
			if res.Thresholds == nil {
				t.Error("the result was not judged")
			}
		})
	}
}

// fakeOutput is an output of the table that loses loss, when set, and
// calls finish, when set, on its section.
type fakeOutput struct {
	engine.NopObserver
	loss   *result.OutputLoss
	finish func(res *result.Result)
}

func (f *fakeOutput) OutputName() (string, bool) { return "--fake-url", false }
func (f *fakeOutput) Close()                     {}
func (f *fakeOutput) Finish(res *result.Result, _ time.Duration) {
	if f.finish != nil {
		f.finish(res)
	}
	if f.loss != nil {
		res.Outputs = append(res.Outputs, *f.loss)
	}
}
